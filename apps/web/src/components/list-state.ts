import { DEFAULT_PAGE_SIZE } from '@portal/shared';

export type SortDirection = 'asc' | 'desc';

/** What a paged list asks the server for (spec §9: default sort id descending, 20 rows). */
export interface ListState {
  page: number;
  limit: number;
  orderBy: string;
  direction: SortDirection;
  search: string;
}

export interface Paged<T> {
  data: T[];
  total: number;
}

export function initialListState(orderBy = 'id', direction: SortDirection = 'desc'): ListState {
  return { page: 1, limit: DEFAULT_PAGE_SIZE, orderBy, direction, search: '' };
}

/** The query string names of GET /api/<entity>. */
export function toListQuery(state: ListState) {
  return {
    limit: state.limit,
    page: state.page,
    order_by: state.orderBy,
    order_direction: state.direction,
    search: state.search || undefined,
  };
}

/** A click on the sorted column flips the direction; another column starts ascending. */
export function toggleSort(state: ListState, key: string): ListState {
  if (state.orderBy === key) {
    return { ...state, direction: state.direction === 'asc' ? 'desc' : 'asc', page: 1 };
  }
  return { ...state, orderBy: key, direction: 'asc', page: 1 };
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/** 1-based rows shown on a page, for 'from–to of total'. */
export function rangeOf(page: number, limit: number, total: number) {
  if (total <= 0) return { from: 0, to: 0, total: 0 };
  const from = Math.min((page - 1) * limit + 1, total);
  return { from, to: Math.min(page * limit, total), total };
}

export function ariaSort(state: ListState, key: string): 'ascending' | 'descending' | 'none' {
  if (state.orderBy !== key) return 'none';
  return state.direction === 'asc' ? 'ascending' : 'descending';
}
