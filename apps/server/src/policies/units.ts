import { eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
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
  // A monitor reaches several units: only unitsInReach/unitCondition speak of them. A caller
  // that knows one unit only reaches nothing for a monitor (fail closed).
  if (actor.role === 'monitor') return 0;
  // Fail closed: an actor without a unit reaches no unit (no unit has id 0).
  return actor.unitId ?? 0;
}

/**
 * Every unit the actor reaches, or null for all: a monitor's assigned units (ADR 051), else the
 * one unit of unitScope.
 */
export function unitsInReach(actor: Actor): readonly number[] | null {
  if (actor.role === 'monitor' && !can(actor, 'patients.all_units')) return actor.unitIds ?? [];
  const scope = unitScope(actor);
  return scope === null ? null : [scope];
}

/** The condition "this unit column is one of these units" (none: false). */
export function unitIn(column: PgColumn, units: readonly number[]): SQL {
  return units.length === 0 ? sql`false` : inArray(column, [...units]);
}

/** The condition "this unit column is within reach" (undefined: every unit). */
export function unitCondition(actor: Actor, column: PgColumn): SQL | undefined {
  const reach = unitsInReach(actor);
  return reach === null ? undefined : unitIn(column, reach);
}

/** Whether a row of the given unit is within the actor's reach. */
export function reachesUnit(actor: Actor, unitId: number): boolean {
  const reach = unitsInReach(actor);
  return reach === null || reach.includes(unitId);
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
