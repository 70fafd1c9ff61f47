import { useQuery } from '@tanstack/react-query';
import type { Unit } from '@portal/shared';
import { api } from '../lib/api-client';
import { PICKER_CACHE } from './cache-policy';
import type { QueryToggle } from './cache-policy';
import { queryKeys } from './query-keys';

/** GET /api/units/all: the units that are not deleted, for pickers and names. */
export function useUnitOptions({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.unitOptions(),
    queryFn: ({ signal }) => api.request<{ data: Unit[] }>('/units/all', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...PICKER_CACHE,
  });
}

/**
 * GET /api/units/all?reachable=1: the units the user reaches, as the server's unit-reach policy
 * decides (an administrator's all, a monitor's assigned ones, a doctor's own), so that a list's
 * unit filter offers no unit its API would answer 404 for.
 */
export function useReachableUnitOptions({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.reachableUnitOptions(),
    queryFn: ({ signal }) =>
      api.request<{ data: Unit[] }>('/units/all', { signal, query: { reachable: '1' } }),
    select: (answer) => answer.data,
    enabled,
    ...PICKER_CACHE,
  });
}
