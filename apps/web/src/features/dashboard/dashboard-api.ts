import { useQuery } from '@tanstack/react-query';
import type { DashboardResponse } from '@portal/shared';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../api/query-keys';

/**
 * GET /api/dashboard (ADR 060) for one unit or every unit within reach. Under the patients
 * entity, so that a registration or a deletion in this tab refreshes the figures; otherwise they
 * are at most a minute old.
 */
export function useDashboard(unitId: string | null) {
  return useQuery({
    queryKey: queryKeys.dashboard(unitId),
    queryFn: ({ signal }) =>
      api.request<DashboardResponse>('/dashboard', {
        signal,
        query: { unit_id: unitId ?? undefined },
      }),
    staleTime: 60_000,
  });
}
