import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SafetyAlert } from '@portal/shared';
import { api } from '../lib/api-client';
import { ENTITY, queryKeys } from './query-keys';

/** The most open alerts one patient's banner lists; more are read on the alerts page. */
const BANNER_LIMIT = 20;

/** GET /api/alerts?status=open&patientIds={id}: the patient card's banner. */
export function usePatientOpenAlerts(patientId: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.patientOpenAlerts(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: SafetyAlert[]; total: number }>('/alerts', {
        signal,
        query: {
          status: 'open',
          patientIds: String(patientId),
          limit: BANNER_LIMIT,
          page: 1,
          order_by: 'created_at',
          order_direction: 'DESC',
        },
      }),
    enabled,
  });
}

/** PUT /api/alerts/{id}/acknowledge with an optional comment (audited on the server). */
export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, comment }: { alert: SafetyAlert; comment: string }) =>
      api.put<{ status: 'success'; alert: SafetyAlert }>(`/alerts/${alert.id}/acknowledge`, {
        comment: comment.trim() === '' ? undefined : comment.trim(),
        version: alert.version,
      }),
    // Also after a refusal (already acknowledged, stale): the lists then show the truth.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.alerts) }),
  });
}
