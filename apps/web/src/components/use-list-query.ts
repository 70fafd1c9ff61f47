import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@portal/shared';
import { api } from '../lib/api-client';
import { initialListState, toggleSort, toListQuery } from './list-state';
import type { ListState, Paged, SortDirection } from './list-state';

export interface ListQueryOptions {
  /** First part of the query key; writes invalidate `[entity]`. */
  entity: string;
  /** API path of the paged list, e.g. '/units'. */
  path: string;
  orderBy?: string;
  direction?: SortDirection;
}

/**
 * Page, page size, sort and search of one list, feeding
 * GET /api/<entity>?limit&page&order_by&order_direction&search -> {data,total}.
 */
export function useListQuery<T>({ entity, path, orderBy, direction }: ListQueryOptions) {
  const [state, setState] = useState<ListState>(() => initialListState(orderBy, direction));
  // What the user typed; the query follows it after the debounce.
  const [searchInput, setSearchInput] = useState('');

  const applySearch = useDebouncedCallback((value: string) => {
    setState((previous) =>
      previous.search === value ? previous : { ...previous, search: value, page: 1 },
    );
  }, SEARCH_DEBOUNCE_MS);

  const params = toListQuery(state);
  const query = useQuery({
    queryKey: [entity, 'list', params],
    queryFn: ({ signal }) => api.request<Paged<T>>(path, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

  return {
    state,
    query,
    rows: query.data?.data ?? [],
    total: query.data?.total ?? 0,
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
