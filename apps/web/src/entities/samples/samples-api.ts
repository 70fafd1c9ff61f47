import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Carrier, Probe, ProbeBody } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { LOOKUP_CACHE } from '../../api/cache-policy';
import { api } from '../../lib/api-client';

/** The patient's samples, newest first (`GET /api/patients/{id}/probes`). */
export function usePatientProbes(patientId: number) {
  return useQuery({
    queryKey: queryKeys.patientProbes(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: Probe[] }>(`/patients/${patientId}/probes`, { signal }),
    select: (answer) =>
      answer.data.slice().sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id),
  });
}

export function useProbeCarriers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.probeCarriers(),
    queryFn: ({ signal }) => api.request<{ data: Carrier[] }>('/probes/carriers', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...LOOKUP_CACHE,
  });
}

/** The postal service's shipping page the "order" button opens (a setting; may be empty). */
export function useOrderLink() {
  return useQuery({
    queryKey: queryKeys.probeOrderLink(),
    queryFn: ({ signal }) => api.request<{ url: string }>('/probes/order_link', { signal }),
    select: (answer) => answer.url,
  });
}

/**
 * The number the sample would get with the form as it is (`POST /api/probes/generate_code/{id}`,
 * nothing reserved). `body` is the form's values as JSON, already debounced by the caller; the
 * last number stays shown while the next one loads.
 */
export function useProbeCodePreview(patientId: number, body: string) {
  return useQuery({
    queryKey: queryKeys.probeCodePreview(patientId, body),
    queryFn: ({ signal }) =>
      api.request<{ code: string }>(`/probes/generate_code/${patientId}`, {
        method: 'POST',
        body: JSON.parse(body) as unknown,
        signal,
      }),
    select: (answer) => answer.code,
    placeholderData: keepPreviousData,
    // The next number moves whenever someone saves a sample: never serve it from an old cache.
    staleTime: 0,
    gcTime: 0,
  });
}

/** `POST /api/probes`: the new sample with its final number; refreshes samples and patients. */
export function useCreateProbe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProbeBody) =>
      api.post<{ status: 'success'; probe: Probe }>('/probes', body).then((answer) => answer.probe),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) }),
        // The patient's probes_count and the visits' sample lists.
        queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.visits) }),
      ]),
  });
}
