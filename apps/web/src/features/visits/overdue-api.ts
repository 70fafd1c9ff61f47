import type { OverdueVisit } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { useListQuery } from '../../components/use-list-query';

/**
 * GET /api/visits/overdue, paged like every list; the longest overdue first. Under the visits
 * entity, so that booking a visit (which invalidates it) refreshes this list too.
 */
export function useOverdueList(unitId: string | null) {
  return useListQuery<OverdueVisit>({
    entity: ENTITY.visits,
    path: '/visits/overdue',
    orderBy: 'window_to',
    direction: 'asc',
    params: { unit_id: unitId ?? undefined },
  });
}

/** Where the "book" link leads: the patient's visits tab with the booking dialog open. */
export const bookingPath = (patientId: number) => `/patients/card/${patientId}?tab=visits&book=1`;
