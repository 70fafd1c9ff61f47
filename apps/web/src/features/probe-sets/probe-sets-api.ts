import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Probe,
  ProbeSet,
  ProbeSetDecisionBody,
  ProbeSetListItem,
  ProbeSetSaved,
  TrackingRefreshResult,
} from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { useListQuery } from '../../components/use-list-query';
import { api } from '../../lib/api-client';
import { probeSetListParams } from './probe-set-filters';
import type { ProbeSetListFilters } from './probe-set-filters';

/**
 * GET /api/probe-sets: 20 per page, id descending (docs/product-rules.md "Lists and paging"), under
 * the probe-set entity.
 */
export function useProbeSetList(filters: ProbeSetListFilters) {
  return useListQuery<ProbeSetListItem>({
    entity: ENTITY.probeSets,
    path: '/probe-sets',
    orderBy: 'id',
    direction: 'desc',
    params: probeSetListParams(filters),
  });
}

/** GET /api/probe-sets/{id}: the order with one entry per kit and its tracking history. */
export function useProbeSet(id: number | null) {
  return useQuery({
    queryKey: queryKeys.probeSet(id ?? 0),
    queryFn: ({ signal }) => api.request<ProbeSet>(`/probe-sets/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** GET /api/probe-sets/probes/{id}: the samples drawn with the order's kits. */
export function useProbeSetProbes(id: number | null) {
  return useQuery({
    queryKey: queryKeys.probeSetProbes(id ?? 0),
    queryFn: ({ signal }) => api.request<{ data: Probe[] }>(`/probe-sets/probes/${id}`, { signal }),
    select: (answer) => answer.data,
    enabled: id !== null,
  });
}

/**
 * After a write: the page shows the answer at once; every list of orders (and the samples'
 * shipment statuses, which come from the kits) refreshes.
 */
function useSavedOrder(id: number) {
  const queryClient = useQueryClient();
  return (saved: ProbeSetSaved) => {
    queryClient.setQueryData(queryKeys.probeSet(id), saved.probe_set);
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probeSets) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) });
  };
}

/** PUT /api/probe-sets/{id}: accept ({status:1}) or reject ({status:2, reason}), only from 0. */
export function useDecideProbeSet(id: number) {
  const onSuccess = useSavedOrder(id);
  return useMutation({
    mutationFn: (body: ProbeSetDecisionBody) => api.put<ProbeSetSaved>(`/probe-sets/${id}`, body),
    onSuccess,
  });
}

/** PUT /api/probe-sets/tracking/{kit id}: one kit's waybill; answers the whole order. */
export function useSaveTracking(orderId: number) {
  const onSuccess = useSavedOrder(orderId);
  return useMutation({
    mutationFn: ({ kitId, ...body }: { kitId: number; tracking_code: string; version: number }) =>
      api.put<ProbeSetSaved>(`/probe-sets/tracking/${kitId}`, body),
    onSuccess,
  });
}

/**
 * POST /api/probe-sets/{id}/tracking/refresh: asks the postal service now about the order's open
 * waybills only (the schedule and POST /api/probe-sets/tracking/refresh ask about every one).
 */
export function useRefreshTracking(orderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<TrackingRefreshResult>(`/probe-sets/${orderId}/tracking/refresh`, {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probeSets) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) }),
      ]),
  });
}
