import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { patients, probeSetKits, probeSets } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { unitScope } from './units.js';

export type ProbeSetRow = typeof probeSets.$inferSelect;
export type ProbeSetKitRow = typeof probeSetKits.$inferSelect;

/**
 * The orders an actor reaches, as a condition on probe_sets: every order with
 * `patients.all_units`, else the orders of the own unit's patients (the patient's unit now: the
 * order follows its patient, as samples do). A semi-join probing the patients' primary key.
 */
export function probeSetScope(actor: Actor): SQL | undefined {
  const unit = unitScope(actor);
  return unit === null
    ? undefined
    : sql`exists (select 1 from ${patients} where ${patients.id} = ${probeSets.patient_id} and ${patients.unit_id} = ${unit})`;
}

/**
 * An order the actor may reach (ADR 004: a doctor, the own unit's patients); another unit's
 * order and a missing one answer 404, so that its existence is not revealed.
 */
export async function findReachableProbeSet(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<ProbeSetRow> {
  const unit = unitScope(actor);
  const [row] = await db
    .select({ set: probeSets })
    .from(probeSets)
    .innerJoin(patients, eq(patients.id, probeSets.patient_id))
    .where(and(eq(probeSets.id, id), unit === null ? undefined : eq(patients.unit_id, unit)));
  if (!row) throw notFound();
  return row.set;
}

/** A kit of an order the actor reaches (as above), else 404. */
export async function findReachableKit(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<ProbeSetKitRow> {
  const unit = unitScope(actor);
  const [row] = await db
    .select({ kit: probeSetKits })
    .from(probeSetKits)
    .innerJoin(patients, eq(patients.id, probeSetKits.patient_id))
    .where(and(eq(probeSetKits.id, id), unit === null ? undefined : eq(patients.unit_id, unit)));
  if (!row) throw notFound();
  return row.kit;
}
