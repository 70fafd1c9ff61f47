import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Probe, ProbeDetail, ProbeResultsBody } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';
import { saveWithReason } from '../../components/reason-dialog';

interface ProbeSavedAnswer {
  status: 'success';
  probe: Probe;
}

const probeKey = queryKeys.probe;

/**
 * GET /api/probes/{id}: the sample with its ranges for the patient's sex, its flags and the
 * laboratory's refusals of its results.
 */
export function useProbe(id: number | null) {
  return useQuery({
    queryKey: probeKey(id),
    queryFn: ({ signal }) => api.request<ProbeDetail>(`/probes/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** After a save: the page shows the answer; lists, the patient's tabs and alerts refresh. */
function useSavedProbe(id: number) {
  const queryClient = useQueryClient();
  return (saved: ProbeSavedAnswer) => {
    // A save answers the sample without the laboratory's refusals: kept until the page reloads
    // it (stored results may have superseded them).
    queryClient.setQueryData<ProbeDetail>(probeKey(id), (old) => ({
      ...saved.probe,
      lab_refusals: old?.lab_refusals ?? [],
    }));
    void queryClient.invalidateQueries({ queryKey: probeKey(id) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.probeLists() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.alerts) });
  };
}

/** PUT /api/probes/{id}: the adverse events (sanitised on the server; null clears them). */
export function useSaveAdverseEvents(id: number) {
  const onSuccess = useSavedProbe(id);
  return useMutation({
    mutationFn: (body: { adverse_events: string | null; version: number }) =>
      api.put<ProbeSavedAnswer>(`/probes/${id}`, body),
    onSuccess,
  });
}

/** PUT /api/probes/{id}/results: the server flags the values and evaluates the safety rules. */
export function useSaveResults(id: number) {
  const onSuccess = useSavedProbe(id);
  return useMutation({
    // Results already entered change only with a reason, asked for when the server says so
    // (ADR 048).
    mutationFn: (body: ProbeResultsBody) =>
      saveWithReason((reason) =>
        api.put<ProbeSavedAnswer>(`/probes/${id}/results`, reason ? { ...body, reason } : body),
      ),
    onSuccess,
  });
}
