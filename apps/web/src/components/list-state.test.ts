import { describe, expect, it } from 'vitest';
import {
  ariaSort,
  initialListState,
  pageCount,
  rangeOf,
  toggleSort,
  toListQuery,
} from './list-state';

describe('list state', () => {
  it('starts on page 1 of 20 rows sorted by id descending', () => {
    expect(initialListState()).toEqual({
      page: 1,
      limit: 20,
      orderBy: 'id',
      direction: 'desc',
      search: '',
    });
  });

  it('builds the query of GET /api/<entity>', () => {
    expect(toListQuery({ ...initialListState(), page: 3, search: 'abc' })).toEqual({
      limit: 20,
      page: 3,
      order_by: 'id',
      order_direction: 'desc',
      search: 'abc',
    });
    expect(toListQuery(initialListState()).search).toBeUndefined();
  });

  it('toggles the direction of the sorted column and starts others ascending', () => {
    const state = { ...initialListState(), page: 4 };
    const flipped = toggleSort(state, 'id');
    expect(flipped).toMatchObject({ orderBy: 'id', direction: 'asc', page: 1 });
    expect(toggleSort(flipped, 'id')).toMatchObject({ direction: 'desc' });
    expect(toggleSort(state, 'name')).toMatchObject({ orderBy: 'name', direction: 'asc' });
  });

  it('tells aria-sort per column', () => {
    const state = initialListState();
    expect(ariaSort(state, 'id')).toBe('descending');
    expect(ariaSort(toggleSort(state, 'id'), 'id')).toBe('ascending');
    expect(ariaSort(state, 'name')).toBe('none');
  });

  it('computes the range indicator and page count', () => {
    expect(rangeOf(1, 20, 57)).toEqual({ from: 1, to: 20, total: 57 });
    expect(rangeOf(3, 20, 57)).toEqual({ from: 41, to: 57, total: 57 });
    expect(rangeOf(1, 20, 0)).toEqual({ from: 0, to: 0, total: 0 });
    expect(pageCount(57, 20)).toBe(3);
    expect(pageCount(0, 20)).toBe(1);
  });
});
