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
