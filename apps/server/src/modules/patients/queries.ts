import { parsePesel } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.js';
import {
  doctors,
  medicines,
  patientAdditionalMedicines,
  patientInclusions,
  patientMedicines,
  patients,
  probes,
  units,
  users,
} from '../../db/schema.js';
import { forbidden } from '../../lib/errors.js';
import { findReachablePatient, patientAbilities } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';
import { presentPatientBasic, presentPatientDetail } from './presenter.js';
import { hidesIdentity, shownIdentity } from '../../policies/identity.js';
import { visitDatesOf } from './visit-dates.js';
import { monitoringFactsOf } from '../queries/index.js';

async function loginOf(db: Queryable, userId: number): Promise<string> {
  const [account] = await db.select({ login: users.login }).from(users).where(eq(users.id, userId));
  return account?.login ?? '';
}

export async function getPatient(db: Queryable, actor: Actor, id: number): Promise<PatientDetail> {
  const row = await findReachablePatient(db, actor, id);
  const [login, [doctor], [unit], [inclusion], meds, others, visitDates, [samples]] =
    await Promise.all([
      loginOf(db, row.user_id),
      db
        .select({ id: doctors.id, firstname: doctors.firstname, surname: doctors.surname })
        .from(doctors)
        .where(eq(doctors.id, row.doctor_id)),
      db.select({ id: units.id, name: units.name }).from(units).where(eq(units.id, row.unit_id)),
      db
        .select({
          group_id: patientInclusions.group_id,
          subgroup_id: patientInclusions.subgroup_id,
          dose: patientInclusions.dose,
          interval: patientInclusions.interval,
        })
        .from(patientInclusions)
        .where(eq(patientInclusions.patient_id, id)),
      db
        .select({
          medicine_id: patientMedicines.medicine_id,
          name: medicines.name,
          dose: patientMedicines.dose,
        })
        .from(patientMedicines)
        .innerJoin(medicines, eq(medicines.id, patientMedicines.medicine_id))
        .where(eq(patientMedicines.patient_id, id))
        .orderBy(asc(medicines.name)),
      db
        .select({
          id: patientAdditionalMedicines.id,
          name: patientAdditionalMedicines.name,
          dose: patientAdditionalMedicines.dose,
        })
        .from(patientAdditionalMedicines)
        .where(eq(patientAdditionalMedicines.patient_id, id))
        .orderBy(asc(patientAdditionalMedicines.id)),
      visitDatesOf(db, [id]),
      // Every sample of the patient, whatever its status (samples are never deleted).
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(probes)
        .where(eq(probes.patient_id, id)),
    ]);
  const facts = await monitoringFactsOf(db, 'patient', id);
  return shownIdentity(
    actor,
    presentPatientDetail(row, {
      probes_count: samples?.count ?? 0,
      ...visitDates(id),
      login,
      doctor: doctor ?? { id: row.doctor_id, firstname: '', surname: '' },
      unit: unit ?? { id: row.unit_id, name: '' },
      inclusion: inclusion ?? null,
      medicines: meds,
      additional_medicines: others,
      abilities: patientAbilities(actor, row),
      facts,
    }),
  );
}

export async function getPatientBasic(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  return shownIdentity(actor, presentPatientBasic(row, await loginOf(db, row.user_id)));
}

/**
 * success (valid and free), exist_patient (taken) or validation_error (not a valid PESEL).
 * `exceptId` (the patient being edited) must be one the actor reaches, 404 otherwise: with
 * another unit's patient it would tell whose PESEL that is.
 */
export async function validatePesel(db: Database, actor: Actor, pesel: string, exceptId?: number) {
  // Whether a PESEL is taken names a patient: not for who may not see PESEL (ADR 051).
  if (hidesIdentity(actor)) throw forbidden();
  if (exceptId !== undefined) await findReachablePatient(db, actor, exceptId);
  if (!parsePesel(pesel)) return 'validation_error' as const;
  const [taken] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(
      and(
        eq(patients.pesel, pesel),
        // A deleted patient does not hold the PESEL (0026); restoring it checks again.
        isNull(patients.deleted_at),
        exceptId ? sql`${patients.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return taken ? ('exist_patient' as const) : ('success' as const);
}
