import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProbeSet, ProbeSetBody, ProbeSetSaved } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/** The patient's kit orders, newest first (`GET /api/probe-sets/patient-sets/{id}`). */
export function usePatientProbeSets(patientId: number, { enabled = true } = {}) {
  return useQuery({
    queryKey: queryKeys.patientProbeSets(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: ProbeSet[] }>(`/probe-sets/patient-sets/${patientId}`, { signal }),
    select: (answer) => answer.data,
    enabled,
  });
}

/** `POST /api/probe-sets`: a new order (status 0) with its kits; refreshes every order list. */
export function useCreateProbeSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProbeSetBody) =>
      api.post<ProbeSetSaved>('/probe-sets', body).then((answer) => answer.probe_set),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probeSets) }),
  });
}
