import type { PatientAbilities } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { patients } from '../db/schema.js';
import { AppError, forbidden, notFound } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';
import { reachesUnit, unitCondition, unitsInReach } from './units.js';

export type PatientRow = typeof patients.$inferSelect;

/**
 * Rows an actor may reach: every unit with `patients.all_units`, otherwise the own unit; a
 * patient only the own row (fail closed: a patient actor without one reaches none).
 */
export function patientScope(actor: Actor): SQL | undefined {
  if (actor.role === 'patient') return eq(patients.id, actor.patientId ?? 0);
  return unitCondition(actor, patients.unit_id);
}

/**
 * patientScope as values, for a statement built once (the plain patients page, ADR 057): the
 * units whose patients a staff actor reaches (null: every unit); undefined for a patient, whose
 * scope is the own row.
 */
export function patientScopeUnits(actor: Actor): readonly number[] | null | undefined {
  return actor.role === 'patient' ? undefined : unitsInReach(actor);
}

/**
 * The signed-in patient's own patient id (the patient API, `/api/me/*`). The route's
 * `patient.self` permission admits patients only; this is the second lock: no patient row, no
 * data (fail closed, 404).
 */
export function ownPatientId(actor: Actor): number {
  if (actor.role !== 'patient' || !actor.patientId) throw notFound();
  return actor.patientId;
}

/**
 * The patient row if the actor may reach it; 404 otherwise, even when it exists in another unit,
 * so that its existence is not revealed. Notes, files and messages reach patients through this.
 */
export async function findReachablePatient(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<PatientRow> {
  const [row] = await db
    .select()
    .from(patients)
    .where(and(eq(patients.id, id), patientScope(actor)));
  if (!row) throw notFound();
  return row;
}

/**
 * A deleted patient is read-only, as on the card: its data, notes, files, messages and password
 * stay as they were until it is restored. 409, because the patient exists and is reachable.
 */
export function assertPatientActive(row: { deleted_at: Date | null }): void {
  if (row.deleted_at) throw new AppError(409, 'patient_deleted');
}

/** The reachable patient (404 otherwise) that may change (409 `patient_deleted` otherwise). */
export async function findChangeablePatient(
  db: Queryable,
  actor: Actor,
  id: number,
): Promise<PatientRow> {
  const row = await findReachablePatient(db, actor, id);
  assertPatientActive(row);
  return row;
}

/**
 * A patient is registered in (or moved to) a unit the actor reaches. The actor names the unit
 * in the form, so the refusal is an honest 403, not a 404.
 */
export function assertMayRegisterIn(actor: Actor, unitId: number): void {
  if (!reachesUnit(actor, unitId)) throw forbidden();
}

/**
 * The actor's abilities on a patient it reached (ADR 045): `patients.write` on a patient not
 * deleted (assertPatientActive) edits and deletes it, on a deleted one restores it;
 * `visits.write` books its visits while it is not deleted.
 */
export function patientAbilities(actor: Actor, row: { deleted_at: Date | null }): PatientAbilities {
  const write = can(actor, 'patients.write');
  const active = !row.deleted_at;
  return {
    edit: write && active,
    delete: write && active,
    restore: write && !active,
    book: can(actor, 'visits.write') && active,
    // Marking is allowed on any patient the monitor reaches (ADR 051), deleted or not.
    verify: can(actor, 'monitor.verify'),
  };
}
