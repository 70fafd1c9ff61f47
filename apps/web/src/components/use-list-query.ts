import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@portal/shared';
import { queryKeys } from '../api/query-keys';
import type { QueryValue } from '../lib/api';
import { api } from '../lib/api-client';
import { initialListState, summarizePage, toggleSort, toListQuery, toPaged } from './list-state';
import type { ListState, OffsetPaged, PagePaged, Paged, SortDirection } from './list-state';

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
}: ListQueryOptions) {
  const [state, setState] = useState<ListState>(() => initialListState(orderBy, direction));
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
    setPage: (page: number) => setState((previous) => ({ ...previous, page })),
    setLimit: (limit: number) => setState((previous) => ({ ...previous, limit, page: 1 })),
    sortBy: (key: string) => setState((previous) => toggleSort(previous, key)),
    setSort: (orderBy: string, direction: SortDirection) =>
      setState((previous) => ({ ...previous, orderBy, direction, page: 1 })),
  };
}

export type ListController<T> = ReturnType<typeof useListQuery<T>>;
