import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  emptyFilters,
  inclusionParams,
  patientFilterParams,
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
    });
  });

  it('sends the filters as comma-separated ids and is_finished=1', () => {
    const query = patientFilterParams(
      { medicines: [16, 3], inclusion: ['g2'], doctors: [5], finished: true },
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
      activeFilterCount({ medicines: [1, 2], inclusion: [], doctors: [3], finished: true }),
    ).toBe(3);
  });
});
