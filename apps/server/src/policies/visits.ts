import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { visits } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { unitScope } from './units.js';

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
  const unit = unitScope(actor);
  const [row] = await db
    .select()
    .from(visits)
    .where(
      and(
        eq(visits.id, id),
        isNull(visits.cancelled_at),
        unit === null ? undefined : eq(visits.unit_id, unit),
      ),
    );
  if (!row) throw notFound();
  return row;
}
