import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { patients, probes, safetyAlerts } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { unitCondition, unitScope } from './units.js';

export type ProbeRow = typeof probes.$inferSelect;
export type SafetyAlertRow = typeof safetyAlerts.$inferSelect;

/**
 * A sample the actor may reach: any with `patients.all_units`, else one of a patient of the own
 * unit (the patient's unit now, not the one at collection: the sample follows the patient).
 * Another unit's sample and a missing one answer 404 (ADR 004).
 */
export async function findReachableProbe(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<ProbeRow> {
  const [row] = await db
    .select({ probe: probes })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .where(and(eq(probes.id, id), unitCondition(actor, patients.unit_id)));
  if (!row) throw notFound();
  return row.probe;
}

/** A safety alert of a patient the actor reaches (as above), else 404. */
export async function findReachableAlert(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<SafetyAlertRow> {
  const unit = unitScope(actor);
  const [row] = await db
    .select({ alert: safetyAlerts })
    .from(safetyAlerts)
    .innerJoin(patients, eq(patients.id, safetyAlerts.patient_id))
    .where(and(eq(safetyAlerts.id, id), unit === null ? undefined : eq(patients.unit_id, unit)));
  if (!row) throw notFound();
  return row.alert;
}
