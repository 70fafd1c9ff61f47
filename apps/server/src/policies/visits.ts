import { formatWarsawTime, warsawDay } from '@portal/shared';
import type { VisitAbilities } from '@portal/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { visits } from '../db/schema.js';
import { AppError, conflict, notFound } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';
import { unitCondition } from './units.js';

export type VisitRow = typeof visits.$inferSelect;

/**
 * A live visit the actor may reach: any unit's with `patients.all_units`, else the own unit's.
 * Another unit's visit, a cancelled one and a missing one all answer 404 (ADR 004).
 */
export async function findReachableVisit(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<VisitRow> {
  const [row] = await db
    .select()
    .from(visits)
    .where(
      and(eq(visits.id, id), isNull(visits.cancelled_at), unitCondition(actor, visits.unit_id)),
    );
  if (!row) throw notFound();
  return row;
}

/**
 * Whether a visit has begun by Warsaw's wall clock (its day is over, or today its start is at
 * or before the current minute): such a visit is history and is neither moved nor cancelled.
 */
export function visitHasBegun(visit: { date: string; started_at: string }, now: Date): boolean {
  const today = warsawDay(now);
  if (visit.date !== today) return visit.date < today;
  return visit.started_at.slice(0, 5) <= formatWarsawTime(now);
}

type VisitState = Pick<VisitRow, 'date' | 'started_at' | 'is_done'>;

/** Why a visit may not be moved or cancelled: done (`visit_done`), begun (`visit_past`), or null. */
function moveRefusal(visit: VisitState, now: Date): 'visit_done' | 'visit_past' | null {
  if (visit.is_done) return 'visit_done';
  if (visitHasBegun(visit, now)) return 'visit_past';
  return null;
}

/** A done or begun visit stays as it is: 409 `visit_done` / `visit_past`. */
export function assertVisitMovable(visit: VisitState, now: Date): void {
  const refusal = moveRefusal(visit, now);
  if (refusal) throw new AppError(409, refusal);
}

/**
 * A visit is recorded from its day on in Europe/Warsaw (409 `too_early` before: a visit that has
 * not happened cannot be done). A recorded one may be corrected (ADR 045).
 */
export function assertVisitRecordable(visit: Pick<VisitRow, 'date'>, today: string): void {
  if (visit.date > today) throw conflict('too_early');
}

/**
 * The actor's abilities on a visit it reached (ADR 045), from the rules above and the patient's
 * (a deleted patient's visits are read-only, policies/patients.ts): what the write calls would
 * accept now, so a screen offers exactly those actions.
 */
export function visitAbilities(
  actor: Actor,
  visit: VisitState,
  patient: { deleted_at: Date | string | null },
  now: Date = new Date(),
): VisitAbilities {
  const write = can(actor, 'visits.write') && !patient.deleted_at;
  const movable = write && moveRefusal(visit, now) === null;
  return {
    edit: movable,
    cancel: movable,
    delete: movable,
    record: write && visit.date <= warsawDay(now),
    notes: write,
  };
}
