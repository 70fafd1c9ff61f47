import type { VisitList, VisitPage, VisitsQuery } from '@portal/shared';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, visits } from '../../db/schema.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import type { Actor } from '../../plugins/policy.js';
import { reachUnit, unitScope } from '../../policies/units.js';
import { liveVisit } from '../../lib/live-visit.js';
import { loadVisits } from './queries.js';

/**
 * The units a day list or month count covers: the named one (404 when out of reach or missing,
 * as for its slots), else every unit the actor reaches.
 */
async function unitFilter(
  db: Database,
  actor: Actor,
  unitId: number | undefined,
): Promise<SQL | undefined> {
  if (unitId !== undefined) {
    await reachUnit(db, actor, unitId);
    return eq(visits.unit_id, unitId);
  }
  const scope = unitScope(actor);
  return scope === null ? undefined : eq(visits.unit_id, scope);
}

/** GET /api/visits?date&unit_id: the day's live visits, by time. */
export async function visitsOfDay(
  db: Database,
  actor: Actor,
  query: { date: string; unit_id?: number | undefined; doctor_id?: number | undefined },
): Promise<VisitList> {
  const units = await unitFilter(db, actor, query.unit_id);
  const doctor = query.doctor_id === undefined ? undefined : eq(visits.doctor_id, query.doctor_id);
  return { data: await loadVisits(db, actor, and(eq(visits.date, query.date), units, doctor)) };
}

export interface VisitListOptions {
  /** Tests only: the table size from which the unfiltered total is estimated. */
  estimateFrom?: number;
}

/**
 * GET /api/visits without a date (ADR 038): a page of the live visits within reach, oldest first
 * by date, start and id, with the total of ADR 021. The page's ids come from an index walk
 * (visits_unit_slot_key for a unit, visits_live_doctor_date_idx for a doctor,
 * visits_live_date_idx for every unit), then the page's rows are loaded by id in the visit's
 * shape. A doctor named from beyond reach simply matches nothing within it.
 */
export async function listVisits(
  db: Database,
  actor: Actor,
  query: Omit<VisitsQuery, 'date'>,
  options: VisitListOptions = {},
): Promise<VisitPage> {
  const units = await unitFilter(db, actor, query.unit_id);
  const where = and(
    liveVisit,
    units,
    query.doctor_id === undefined ? undefined : eq(visits.doctor_id, query.doctor_id),
    query.from === undefined ? undefined : gte(visits.date, query.from),
    query.to === undefined ? undefined : lte(visits.date, query.to),
    query.out_of_window === undefined
      ? undefined
      : eq(visits.out_of_window, query.out_of_window === 1),
    // Visits of active patients only, as the dashboard counts them (ADR 060): a semi-join
    // probing the patients' primary key for each row the index walk meets.
    sql`exists (select 1 from ${patients} where ${patients.id} = ${visits.patient_id} and ${patients.deleted_at} is null)`,
  );
  const scope = query.unit_id ?? unitScope(actor);
  const unfiltered =
    scope === null &&
    query.doctor_id === undefined &&
    query.from === undefined &&
    query.to === undefined &&
    query.out_of_window === undefined;
  const total = listTotal(db, {
    key: totalKey('visits', {
      scope: scope ?? 'all',
      doctor: query.doctor_id,
      from: query.from,
      to: query.to,
      window: query.out_of_window,
    }),
    rows: () => db.select({ id: visits.id }).from(visits).where(where).$dynamic(),
    ...(unfiltered ? { unfilteredTable: 'visits' } : {}),
    ...(options.estimateFrom !== undefined ? { estimateFrom: options.estimateFrom } : {}),
  });
  const page = await db
    .select({ id: visits.id })
    .from(visits)
    .where(where)
    .orderBy(asc(visits.date), asc(visits.started_at), asc(visits.id))
    .limit(query.limit)
    .offset(offsetOf(query.page, query.limit));
  const ids = page.map((row) => row.id);
  const [rows, counted] = await Promise.all([
    ids.length === 0 ? Promise.resolve([]) : loadVisits(db, actor, inArray(visits.id, ids)),
    total,
  ]);
  return pagedAnswer(
    inOrderOf(ids, rows, (row) => row.id),
    counted,
  );
}

/** GET /api/visits/count?year&month&unit_id: live visits per day of the month (days with any). */
export async function visitsCountOfMonth(
  db: Database,
  actor: Actor,
  query: { year: number; month: number; unit_id?: number | undefined },
): Promise<{ data: { date: string; count: number }[] }> {
  const units = await unitFilter(db, actor, query.unit_id);
  const first = `${String(query.year).padStart(4, '0')}-${String(query.month).padStart(2, '0')}-01`;
  const days = new Date(Date.UTC(query.year, query.month, 0)).getUTCDate();
  const last = `${first.slice(0, 8)}${String(days).padStart(2, '0')}`;
  const rows = await db
    .select({ date: visits.date, count: sql<number>`count(*)::int` })
    .from(visits)
    .where(and(liveVisit, gte(visits.date, first), lte(visits.date, last), units))
    .groupBy(visits.date)
    .orderBy(asc(visits.date));
  return { data: rows };
}
