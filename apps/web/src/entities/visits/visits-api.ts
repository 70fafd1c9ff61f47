import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DaySlot,
  SlotsResponse,
  SuccessResponse,
  Visit,
  VisitBody,
  VisitUpdateBody,
  VisitSaved,
  NextVisitWindow,
} from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/** The patient's live visits, oldest first (`GET /api/patients/{id}/visits`). */
export function usePatientVisits(patientId: number) {
  return useQuery({
    queryKey: queryKeys.patientVisits(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: Visit[] }>(`/patients/${patientId}/visits`, { signal }),
    select: (answer) => answer.data,
  });
}

/**
 * The window of the patient's next visit number (`data`; null for the first visit or past the
 * schedule) and the last day a visit may be booked on (`bookable_until`, ADR 038).
 */
export function useVisitWindow(patientId: number) {
  return useQuery({
    queryKey: queryKeys.patientVisitWindow(patientId),
    queryFn: ({ signal }) =>
      api.request<NextVisitWindow>(`/patients/${patientId}/visit_window`, { signal }),
  });
}

/**
 * Every open slot of a unit's day, booked or free, and the day's visits in hours closed since
 * they were booked (shown, never hidden: ADR 041), in time order; waits for a day to be chosen.
 */
export function useSlots(unitId: number, date: string | null) {
  return useQuery({
    queryKey: queryKeys.unitSlots(unitId, date),
    queryFn: ({ signal }) =>
      api.request<SlotsResponse>(`/units/${unitId}/slots`, { query: { date }, signal }),
    select: (answer): DaySlot[] =>
      [...answer.data, ...(answer.closed_visits ?? [])].sort((a, b) =>
        a.started_at.localeCompare(b.started_at),
      ),
    enabled: date !== null,
  });
}

/**
 * A booking changes the patient's visits and window, the patients list's last and next visit
 * columns (all under `patients`) and the unit's slots (under `visits`).
 */
function useInvalidateVisits() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.visits) }),
    ]);
}

/** Books a new visit (POST) or, with `visitId`, moves that visit to another slot (PUT). */
export function useSaveVisit() {
  const invalidate = useInvalidateVisits();
  return useMutation({
    // A move names the version of the visit it read (ADR 018).
    mutationFn: (
      save: { visitId: null; body: VisitBody } | { visitId: number; body: VisitUpdateBody },
    ) =>
      save.visitId === null
        ? api.post<VisitSaved>('/visits', save.body)
        : api.put<VisitSaved>(`/visits/${save.visitId}`, save.body),
    onSettled: invalidate,
  });
}

/** Cancels an upcoming visit; the row stays on the server with its cancellation time. */
export function useCancelVisit() {
  const invalidate = useInvalidateVisits();
  return useMutation({
    mutationFn: (visitId: number) => api.delete<SuccessResponse>(`/visits/${visitId}`),
    onSettled: invalidate,
  });
}
