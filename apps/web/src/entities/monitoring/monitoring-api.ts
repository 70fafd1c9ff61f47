import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataQuery, MonitoredRecordType, QueryBody } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import type { QueryValue } from '../../lib/api';
import { api } from '../../lib/api-client';

interface QuerySaved {
  status: 'success';
  query: DataQuery;
}

/** Which queries a record shows: a visit's or a sample's own, a patient card's of all its records. */
export type QueryScope =
  { record_type: MonitoredRecordType; record_id: number } | { patient_id: number };

/**
 * A verification mark, a query or a step of one changes what a record's detail answers
 * (`verified`, `open_queries`): every query of the records and of the queries is refreshed.
 */
function useRefreshMonitored() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [ENTITY.queries, ENTITY.patients, ENTITY.visits, ENTITY.probes].map((entity) =>
        queryClient.invalidateQueries({ queryKey: queryKeys.all(entity) }),
      ),
    );
}

/** GET /api/queries for one record or one patient: every status, newest first (one page). */
export function useRecordQueries(scope: QueryScope, enabled = true) {
  // The largest page the list takes: a record with more queries than that shows the newest.
  const params: Record<string, QueryValue> = { ...scope, limit: 100, page: 1 };
  return useQuery({
    queryKey: queryKeys.list(ENTITY.queries, params),
    queryFn: ({ signal }) =>
      api.request<{ data: DataQuery[]; total: number }>('/queries', { query: params, signal }),
    enabled,
  });
}

/** POST /api/verifications: the monitor marks the record verified as it is now. */
export function useVerify() {
  const refresh = useRefreshMonitored();
  return useMutation({
    mutationFn: (body: { record_type: MonitoredRecordType; record_id: number }) =>
      api.post<{ status: 'success' }>('/verifications', body),
    onSuccess: refresh,
  });
}

/** POST /api/queries: the monitor opens a query on a record or one of its fields. */
export function useOpenQuery() {
  const refresh = useRefreshMonitored();
  return useMutation({
    mutationFn: (body: QueryBody) => api.post<QuerySaved>('/queries', body),
    onSuccess: refresh,
  });
}

/** POST /api/queries/{id}/messages: the site answers, the monitor asks again. */
export function useQueryMessage() {
  const refresh = useRefreshMonitored();
  return useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) =>
      api.post<QuerySaved>(`/queries/${id}/messages`, { text }),
    onSuccess: refresh,
  });
}

/** POST /api/queries/{id}/close or /reopen (the monitor). */
export function useQueryStatus() {
  const refresh = useRefreshMonitored();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'close' | 'reopen' }) =>
      api.post<QuerySaved>(`/queries/${id}/${action}`),
    onSuccess: refresh,
  });
}
