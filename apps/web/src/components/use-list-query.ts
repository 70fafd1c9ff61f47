import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, SEARCH_DEBOUNCE_MS } from '@portal/shared';
import { queryKeys } from '../api/query-keys';
import type { QueryValue } from '../lib/api';
import { api } from '../lib/api-client';
import {
  cursorFrom,
  cursorTo,
  idParam,
  initialListState,
  summarizePage,
  toggleSort,
  toListQuery,
  toPaged,
} from './list-state';
import type { Cursor, ListState, OffsetPaged, PagePaged, Paged, SortDirection } from './list-state';

export interface ListQueryOptions {
  /** First part of the query key; writes invalidate `[entity]`. */
  entity: string;
  /** API path of the paged list, e.g. '/units'. */
  path: string;
  orderBy?: string;
  direction?: SortDirection;
  /**
   * 'offset' asks limit&offset and reads {data,total_count} (the patients list,
   * docs/product-rules.md "Lists and paging"); default 'page'.
   */
  paging?: 'page' | 'offset';
  /** Filters sent with every request; the caller returns to page 1 when they change. */
  params?: Record<string, QueryValue>;
  /**
   * Pages by key (the audit trail and the read log, ADR 022/052): a step to the next or the
   * previous page asks `after`/`before` the edge row of the page shown, so a deep page costs
   * what the first does; a jump to another page number asks `page` (an offset). The page, its
   * size and the key live in the URL (`page`, `limit`, `after`, `before`): a reload or a shared
   * link opens the same page.
   */
  keyset?: boolean;
}

/** An answered page together with the page and size it answers, which the summary needs. */
interface AnsweredPage<T> extends Paged<T> {
  page: number;
  limit: number;
}

/**
 * Page, page size, sort and search of one list, feeding
 * GET /api/<entity>?limit&page&order_by&order_direction&search -> {data,total}.
 */
export function useListQuery<T>({
  entity,
  path,
  orderBy,
  direction,
  paging = 'page',
  params: filters,
  keyset = false,
}: ListQueryOptions) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [ownState, setOwnState] = useState<ListState>(() => initialListState(orderBy, direction));
  // A keyset list keeps its page, size and key in the URL instead (see `keyset`).
  const urlPage = idParam(searchParams.get('page')) ?? 1;
  const urlLimit = Number(searchParams.get('limit'));
  const state: ListState = keyset
    ? {
        ...ownState,
        page: urlPage,
        limit: (PAGE_SIZES as readonly number[]).includes(urlLimit) ? urlLimit : ownState.limit,
      }
    : ownState;
  const cursor = keyset ? cursorFrom(searchParams) : null;
  const setState = (update: (previous: ListState) => ListState) => {
    if (!keyset) {
      setOwnState(update);
      return;
    }
    const next = update(state);
    setOwnState(next);
    setUrlPage(next.page, next.limit, next.page === state.page ? cursor : null);
  };
  function setUrlPage(page: number, limit: number, key: Cursor) {
    setSearchParams((previous) => {
      const params = new URLSearchParams(previous);
      for (const name of ['page', 'limit', 'after', 'before']) params.delete(name);
      if (page > 1) params.set('page', String(page));
      if (limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(limit));
      if (key && 'after' in key) params.set('after', String(key.after));
      if (key && 'before' in key) params.set('before', String(key.before));
      return params;
    });
  }
  // What the user typed; the query follows it after the debounce.
  const [searchInput, setSearchInput] = useState('');

  const applySearch = useDebouncedCallback((value: string) => {
    setState((previous) =>
      previous.search === value ? previous : { ...previous, search: value, page: 1 },
    );
  }, SEARCH_DEBOUNCE_MS);

  const { page, ...rest } = toListQuery(state);
  const params = {
    ...(paging === 'offset' ? { ...rest, offset: (page - 1) * state.limit } : { ...rest, page }),
    ...filters,
    ...(cursor ?? {}),
  };
  const query = useQuery({
    queryKey: queryKeys.list(entity, params),
    queryFn: async ({ signal }): Promise<AnsweredPage<T>> => {
      const answer = await api.request<PagePaged<T> | OffsetPaged<T>>(path, {
        query: params,
        signal,
      });
      return { ...toPaged(answer), page, limit: state.limit };
    },
    // While the next page, sort or filter loads, the last answer stays: rows, range and total
    // alike (never a flicker to 0), with the page it belongs to.
    placeholderData: keepPreviousData,
  });
  const answer = query.data;

  return {
    state,
    query,
    rows: answer?.data ?? [],
    /** Range, total and page count of the rows shown; null until the first answer. */
    summary: answer
      ? summarizePage(
          answer.page,
          answer.limit,
          answer.data.length,
          answer.total,
          answer.total_kind,
        )
      : null,
    searchInput,
    setSearch: (value: string) => {
      setSearchInput(value);
      applySearch(value.trim());
    },
    setPage: (page: number) => {
      if (!keyset) {
        setOwnState((previous) => ({ ...previous, page }));
        return;
      }
      // A step from the page shown goes by key; any other page by its number.
      const shown = answer && !query.isPlaceholderData ? answer : undefined;
      setUrlPage(page, state.limit, shown ? cursorTo(page, shown.page, shown.data) : null);
    },
    setLimit: (limit: number) => setState((previous) => ({ ...previous, limit, page: 1 })),
    sortBy: (key: string) => setState((previous) => toggleSort(previous, key)),
    setSort: (orderBy: string, direction: SortDirection) =>
      setState((previous) => ({ ...previous, orderBy, direction, page: 1 })),
  };
}

export type ListController<T> = ReturnType<typeof useListQuery<T>>;
