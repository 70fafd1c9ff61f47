import type { VisitList } from '@portal/shared';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import type { Actor } from '../../plugins/policy.js';
import { unitScope } from '../../policies/units.js';
import { liveVisit, loadVisits } from './queries.js';
import { reachUnit } from './slots-service.js';

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
  query: { date: string; unit_id?: number | undefined },
): Promise<VisitList> {
  const units = await unitFilter(db, actor, query.unit_id);
  return { data: await loadVisits(db, and(eq(visits.date, query.date), units)) };
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
