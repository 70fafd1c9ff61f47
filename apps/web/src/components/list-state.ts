import { COUNT_CAP, DEFAULT_PAGE_SIZE } from '@portal/shared';
import type { TotalKind } from '@portal/shared';
import type { TFunction } from 'i18next';

export type SortDirection = 'asc' | 'desc';

/**
 * What a paged list asks the server for (docs/product-rules.md "Lists and paging": default sort id
 * descending, 20 rows).
 */
export interface ListState {
  page: number;
  limit: number;
  orderBy: string;
  direction: SortDirection;
  search: string;
}

/** A page of a list as the widgets hold it, whichever paging style the endpoint speaks. */
export interface Paged<T> {
  data: T[];
  total: number;
  total_kind: TotalKind;
}

/** The page-style answer: GET /api/<entity>?page -> {data,total,total_kind}. */
export interface PagePaged<T> {
  data: T[];
  total: number;
  /** Absent only from a server older than issue 8, whose totals were all exact. */
  total_kind?: TotalKind;
}

/**
 * The offset-style answer of the patients list (docs/product-rules.md "Lists and paging"):
 * {data,total_count,total_kind}.
 */
export interface OffsetPaged<T> {
  data: T[];
  total_count: number;
  total_kind?: TotalKind;
}

/** Both paging styles become one shape here, so the widgets have one code path. */
export function toPaged<T>(answer: PagePaged<T> | OffsetPaged<T>): Paged<T> {
  const total = 'total_count' in answer ? answer.total_count : answer.total;
  return { data: answer.data, total, total_kind: answer.total_kind ?? 'exact' };
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

/** What the range indicator and the pager show for one answered page. */
export interface PageSummary {
  /** 1-based first and last row shown; both 0 on an empty page. */
  from: number;
  to: number;
  total: number;
  kind: TotalKind;
  /** Pages the pager offers. */
  pages: number;
}

/**
 * The range and page count of an answered page, for every kind of total:
 * - `exact`: as counted;
 * - `at_least` (a filter matched more than COUNT_CAP rows): pages up to the cap, no further, since
 *   the rows beyond it are reached by narrowing the filter;
 * - `estimate` (the planner's figure for a large table): pages by the estimate, and one more while
 *   the last offered page is full, so that an estimate below the truth hides no row.
 * A page shorter than the page size is the end of the list, whatever was estimated or capped: the
 * total is then known exactly (this also corrects a total that changed while it was remembered),
 * and so it is when the first page is empty.
 */
export function summarizePage(
  page: number,
  limit: number,
  rowsOnPage: number,
  total: number,
  kind: TotalKind,
): PageSummary {
  const first = (page - 1) * limit + 1;
  if (page === 1 && rowsOnPage === 0) return { from: 0, to: 0, total: 0, kind: 'exact', pages: 1 };
  if (rowsOnPage > 0 && rowsOnPage < limit) {
    const end = first + rowsOnPage - 1;
    return { from: first, to: end, total: end, kind: 'exact', pages: page };
  }
  const from = rowsOnPage > 0 ? first : 0;
  const to = rowsOnPage > 0 ? first + rowsOnPage - 1 : 0;
  if (kind === 'at_least') {
    const capped = Math.max(total, COUNT_CAP);
    return { from, to, total: capped, kind, pages: pageCount(capped, limit) };
  }
  if (kind === 'estimate') {
    const pages = pageCount(Math.max(total, to), limit);
    return {
      from,
      to,
      total: Math.max(total, to),
      kind,
      pages: rowsOnPage === limit && page >= pages ? page + 1 : pages,
    };
  }
  return { from, to, total, kind, pages: pageCount(total, limit) };
}

/** Counts in the user's language: 3 800 000 in Polish, 3,800,000 in English. */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** The total as the range indicator says it: '57', '10 000+', 'ok. 3 800 000'. */
export function formatTotal(
  total: number,
  kind: TotalKind,
  language: string,
  t: TFunction,
): string {
  const count = formatCount(total, language);
  if (kind === 'at_least') return t('list.totalAtLeast', { total: count });
  if (kind === 'estimate') return t('list.totalEstimate', { total: count });
  return count;
}

export function ariaSort(state: ListState, key: string): 'ascending' | 'descending' | 'none' {
  if (state.orderBy !== key) return 'none';
  return state.direction === 'asc' ? 'ascending' : 'descending';
}

/** The key of a keyset page as the URL and the API name it. */
export type Cursor = { after: number } | { before: number } | null;

export function idParam(value: string | null): number | undefined {
  return value && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined;
}

export function cursorFrom(params: URLSearchParams): Cursor {
  const after = idParam(params.get('after'));
  if (after !== undefined) return { after };
  const before = idParam(params.get('before'));
  return before !== undefined ? { before } : null;
}

function rowId(row: unknown): number | undefined {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : undefined;
}

/**
 * The key that reaches `page` from the page shown: the last row's id for the next page, the first
 * row's for the previous one (but page 1, which is the newest whatever was written since, by
 * offset); null for any other jump.
 */
export function cursorTo(page: number, shownPage: number, rows: readonly unknown[]): Cursor {
  if (page === shownPage + 1) {
    const last = rowId(rows.at(-1));
    return last !== undefined ? { after: last } : null;
  }
  if (page === shownPage - 1 && page > 1) {
    const first = rowId(rows[0]);
    return first !== undefined ? { before: first } : null;
  }
  return null;
}
