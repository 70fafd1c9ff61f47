import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MatchPreview, ProbeListItem, UnmatchedResult, UnmatchedSaved } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { useListQuery } from '../../components/use-list-query';
import { api } from '../../lib/api-client';

/** How many samples the match dialog's picker offers for the typed code. */
const PICKER_LIMIT = 10;

/** GET /api/lab/unmatched?status=…: one status, newest first. */
export function useUnmatchedList(status: UnmatchedResult['status']) {
  return useListQuery<UnmatchedResult>({
    entity: ENTITY.labUnmatched,
    path: '/lab/unmatched',
    orderBy: 'created_at',
    direction: 'desc',
    params: { status },
  });
}

/** GET /api/probes?search=…: the samples whose code (or patient) matches what was typed. */
export function useProbeSearch(term: string) {
  return useQuery({
    queryKey: queryKeys.probeSearch(term),
    queryFn: ({ signal }) =>
      api.request<{ data: ProbeListItem[] }>('/probes', {
        signal,
        query: {
          search: term,
          limit: PICKER_LIMIT,
          page: 1,
          order_by: 'created_at',
          order_direction: 'desc',
        },
      }),
    select: (answer) => answer.data,
    enabled: term !== '',
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/lab/unmatched/{id}/preview?probe_id=: the laboratory's patient beside the chosen
 * sample's, and what matching would replace. Always fresh: the sample may change meanwhile.
 */
export function useMatchPreview(rowId: number, probeId: number | null) {
  return useQuery({
    queryKey: queryKeys.unmatchedPreview(rowId, probeId),
    queryFn: ({ signal }) =>
      api.request<MatchPreview>(`/lab/unmatched/${rowId}/preview`, {
        signal,
        query: { probe_id: probeId ?? 0 },
      }),
    enabled: probeId !== null,
    staleTime: 0,
  });
}

/**
 * The match and the discard: both refresh the lists (also after a refusal, so they show the
 * truth) and a match refreshes the samples, whose values it changed.
 */
export function useResolveUnmatched() {
  const queryClient = useQueryClient();
  const settle = (probes: boolean) => async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.labUnmatched) });
    if (probes) await queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) });
  };
  const match = useMutation({
    mutationFn: ({
      row,
      probeId,
      replace,
    }: {
      row: UnmatchedResult;
      probeId: number;
      /** Set once the user confirmed overwriting the sample's value. */
      replace: boolean;
    }) =>
      api.put<UnmatchedSaved>(`/lab/unmatched/${row.id}`, {
        probe_id: probeId,
        version: row.version,
        ...(replace ? { replace: true } : {}),
      }),
    onSettled: settle(true),
  });
  const discard = useMutation({
    mutationFn: ({ row, reason }: { row: UnmatchedResult; reason: string }) =>
      api.put<UnmatchedSaved>(`/lab/unmatched/${row.id}/discard`, {
        reason,
        version: row.version,
      }),
    onSettled: settle(false),
  });
  return { match, discard };
}
