import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  emptyFilters,
  filtersFromSearch,
  inclusionParams,
  patientFilterParams,
  searchOfFilters,
} from './patient-filters-state';

const groups = [
  { id: 1, sub_groups: [{ id: 1 }, { id: 2 }, { id: 3 }] },
  { id: 2, sub_groups: [{ id: 4 }, { id: 5 }] },
  { id: 3, sub_groups: [{ id: 6 }, { id: 7 }] },
];

describe('patients list filters', () => {
  it('leaves empty filters out', () => {
    expect(patientFilterParams(emptyFilters(), groups)).toEqual({
      medicines: undefined,
      doctors: undefined,
      is_finished: undefined,
      unit_id: undefined,
      deleted: undefined,
    });
  });

  it('sends the filters as comma-separated ids and is_finished=1', () => {
    const query = patientFilterParams(
      {
        ...emptyFilters(),
        medicines: [16, 3],
        inclusion: ['g2'],
        doctors: [5],
        finished: true,
      },
      groups,
    );
    expect(query).toEqual({ groups: '2', medicines: '3,16', doctors: '5', is_finished: 1 });
  });

  it('widens a mix of groups and subgroups so that the server finds any of them', () => {
    expect(inclusionParams(['s5'], groups)).toEqual({ groups: '2', sub_groups: '5' });
    expect(inclusionParams(['g1', 's5'], groups)).toEqual({
      groups: '1,2',
      sub_groups: '1,2,3,5',
    });
    expect(inclusionParams([], groups)).toEqual({});
    expect(inclusionParams(['x1', 'gfoo'], groups)).toEqual({});
  });

  it('counts the active filters for the panel toggle', () => {
    expect(activeFilterCount(emptyFilters())).toBe(0);
    expect(
      activeFilterCount({ ...emptyFilters(), medicines: [1, 2], doctors: [3], finished: true }),
    ).toBe(3);
  });

  it('reads the filters a link names (the dashboard’s tiles) and counts them', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('groups=2,x,3&deleted=0&unit_id=7&search=a'),
      true,
    );
    expect(filters).toEqual({
      ...emptyFilters(),
      inclusion: ['g2', 'g3'],
      unitId: 7,
      deleted: '0',
    });
    expect(activeFilterCount(filters)).toBe(3);
    expect(patientFilterParams(filters, groups)).toMatchObject({
      groups: '2,3',
      unit_id: 7,
      deleted: '0',
    });
    // A doctor's list is the own unit's: a unit in the address is ignored; so is a bad value.
    expect(filtersFromSearch(new URLSearchParams('unit_id=7&deleted=yes'), false)).toEqual(
      emptyFilters(),
    );
    expect(filtersFromSearch(new URLSearchParams('unit_id=0'), true).unitId).toBeNull();
  });

  it('writes back to the address what a link can name, and nothing once cleared', () => {
    const filters = { ...emptyFilters(), inclusion: ['g2'], unitId: 7, deleted: '1' as const };
    expect(searchOfFilters(filters).toString()).toBe('groups=2&unit_id=7&deleted=1');
    expect(searchOfFilters({ ...filters, inclusion: ['g2', 's5'] }).toString()).toBe(
      'unit_id=7&deleted=1',
    );
    expect(searchOfFilters(emptyFilters()).toString()).toBe('');
  });
});
