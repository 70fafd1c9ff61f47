import { warsawDay } from '@portal/shared';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Placeholder, SQLWrapper } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { visits } from '../../db/schema.js';

export interface VisitDates {
  /** The last live visit before today (Warsaw) or recorded, YYYY-MM-DD. */
  past_visit_date: string | null;
  /** The next live visit from today on that is not recorded yet, YYYY-MM-DD (ADR 045). */
  next_visit_date: string | null;
}

const NONE: VisitDates = { past_visit_date: null, next_visit_date: null };

/** The last live visit before `today` or recorded, over the visits in scope (an aggregate). */
const pastVisit = (today: string | Placeholder) =>
  sql<
    string | null
  >`to_char(max(${visits.date}) filter (where ${visits.date} < ${today}::date or ${visits.is_done}), 'YYYY-MM-DD')`;

/** The next live visit from `today` on, not recorded yet (an aggregate). */
const nextVisit = (today: string | Placeholder) =>
  sql<
    string | null
  >`to_char(min(${visits.date}) filter (where ${visits.date} >= ${today}::date and not ${visits.is_done}), 'YYYY-MM-DD')`;

/**
 * The same two dates as one column of a query over patients (the list's single statement,
 * ADR 057): a correlated aggregate over the patient's live visits, answering a JSON object.
 * `today` may be a placeholder (the plain page's named statement).
 */
export function visitDatesColumn(patientId: SQLWrapper, today: string | Placeholder = warsawDay()) {
  return sql<VisitDates>`(select json_build_object('past_visit_date', ${pastVisit(today)}, 'next_visit_date', ${nextVisit(today)})
    from ${visits} where ${visits.patient_id} = ${patientId} and ${visits.cancelled_at} is null)`;
}

/**
 * The last and next visit of the given patients only (a list's page or one card): a visit
 * recorded today is the last one, no longer the next (ADR 045). One grouped
 * read of visits_patient_id_date_idx, so the list stays as fast as ADR 021 measured.
 */
export async function visitDatesOf(
  db: Queryable,
  patientIds: readonly number[],
  today = warsawDay(),
): Promise<(patientId: number) => VisitDates> {
  if (patientIds.length === 0) return () => NONE;
  const rows = await db
    .select({ patientId: visits.patient_id, past: pastVisit(today), next: nextVisit(today) })
    .from(visits)
    .where(and(inArray(visits.patient_id, [...patientIds]), isNull(visits.cancelled_at)))
    .groupBy(visits.patient_id);
  const byPatient = new Map(
    rows.map((row) => [row.patientId, { past_visit_date: row.past, next_visit_date: row.next }]),
  );
  return (patientId) => byPatient.get(patientId) ?? NONE;
}
