import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CalendarBookedVisit,
  CalendarRuleBody,
  CalendarWriteConflict,
  CalendarRuleList,
  CalendarRuleSaved,
  CalendarRulesCount,
  Unit,
  Visit,
} from '@portal/shared';
import { queryKeys } from '../../api/query-keys';
import { isApiError } from '../../lib/api';
import { api } from '../../lib/api-client';

/** GET /api/units/{id}: the unit's name for the title. */
export function useUnit(unitId: number) {
  return useQuery({
    queryKey: queryKeys.unit(unitId),
    queryFn: ({ signal }) => api.request<Unit>(`/units/${unitId}`, { signal }),
  });
}

/** GET /api/units/calendar/get_rules_count: the month's rule counts and whole-day blocks. */
export function useRulesCount(unitId: number, year: number, month: number) {
  return useQuery({
    queryKey: queryKeys.calendarMonth(unitId, year, month),
    queryFn: ({ signal }) =>
      api.request<CalendarRulesCount>('/units/calendar/get_rules_count', {
        query: { unit_id: unitId, year, month },
        signal,
      }),
    // Paging months keeps the previous month's days on screen until the next one arrives.
    placeholderData: (previous) => previous,
  });
}

/** GET /api/units/calendar/get_by_filters: the date's rules and its weekday's global ones. */
export function useDayRules(unitId: number, date: string) {
  return useQuery({
    queryKey: queryKeys.calendarDay(unitId, date),
    queryFn: ({ signal }) =>
      api.request<CalendarRuleList>('/units/calendar/get_by_filters', {
        query: { unit_id: unitId, date },
        signal,
      }),
    select: (answer) => answer.data,
  });
}

/** Every change refetches the unit's months and days, so counts and badges follow. */
function useInvalidateUnit(unitId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.calendarUnit(unitId) });
}

/** POST /api/units/calendar, or PUT /api/units/calendar/{id} with the version the form read. */
export function useSaveRule(unitId: number) {
  const invalidate = useInvalidateUnit(unitId);
  return useMutation({
    // A new rule has no version; an edit sends the one it read (ADR 018).
    mutationFn: (
      save:
        | { id: null; body: CalendarRuleBody }
        | { id: number; body: CalendarRuleBody; version: number },
    ) =>
      save.id === null
        ? api.post<CalendarRuleSaved>('/units/calendar', save.body)
        : api.put<CalendarRuleSaved>(`/units/calendar/${save.id}`, {
            ...save.body,
            version: save.version,
          }),
    onSettled: invalidate,
  });
}

/**
 * DELETE /api/units/calendar/{id}; `confirm` after the user saw the booked visits that deleting
 * an unblock closes (ADR 041).
 */
export function useDeleteRule(unitId: number) {
  const invalidate = useInvalidateUnit(unitId);
  return useMutation({
    mutationFn: ({ id, confirm = false }: { id: number; confirm?: boolean }) =>
      api.request<unknown>(`/units/calendar/${id}`, {
        method: 'DELETE',
        ...(confirm ? { query: { confirm_booked_visits: 'true' } } : {}),
      }),
    onSettled: invalidate,
  });
}

/** GET /api/visits?date&unit_id: the day's booked visits, shown in the day panel (ADR 041). */
export function useDayVisits(unitId: number, date: string) {
  return useQuery({
    queryKey: queryKeys.calendarDayVisits(unitId, date),
    queryFn: ({ signal }) =>
      api.request<{ data: Visit[] }>('/visits', { query: { date, unit_id: unitId }, signal }),
    select: (answer) => answer.data,
  });
}

/** The booked visits a refused calendar write would close (409 `visits_booked`), else null. */
export function bookedVisitsOf(error: unknown): CalendarBookedVisit[] | null {
  if (!isApiError(error) || error.status !== 'visits_booked') return null;
  return (error.body as CalendarWriteConflict | undefined)?.visits ?? [];
}
