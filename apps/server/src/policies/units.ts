import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { units } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

/**
 * The care unit an actor is confined to, or null for all units. Only `patients.all_units`
 * (administrators) reaches every unit; a doctor works in the own unit. Units themselves are
 * read-only for doctors: `units.manage` is an administrator's permission (plugins/policy.ts).
 */
export function unitScope(actor: Actor): number | null {
  if (can(actor, 'patients.all_units')) return null;
  // A patient reaches no unit's rows through unit scopes, only the own record (patients.ts).
  if (actor.role === 'patient') return 0;
  // Fail closed: an actor without a unit reaches no unit (no unit has id 0).
  return actor.unitId ?? 0;
}

/** Whether a row of the given unit is within the actor's reach. */
export function reachesUnit(actor: Actor, unitId: number): boolean {
  const scope = unitScope(actor);
  return scope === null || scope === unitId;
}

/**
 * A unit named by the caller (a calendar, a day's slots or visits) must exist and be within
 * reach; another unit's (for a doctor) and a missing one both answer 404, like another unit's
 * patient, so a doctor learns nothing about it.
 */
export async function reachUnit(db: Queryable, actor: Actor, unitId: number): Promise<void> {
  if (!reachesUnit(actor, unitId)) throw notFound();
  const [unit] = await db.select({ id: units.id }).from(units).where(eq(units.id, unitId));
  if (!unit) throw notFound();
}
