import { parsePesel } from '@portal/shared';
import type { PatientDetail, PatientListQuery } from '@portal/shared';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.js';
import {
  doctors,
  inclusionCriteriaGroups,
  inclusionCriteriaSubgroups,
  medicines,
  patientAdditionalMedicines,
  patientInclusions,
  patientMedicines,
  patients,
  units,
  users,
} from '../../db/schema.js';
import { countAll, orderBy, searchAny } from '../../lib/listing.js';
import { findReachablePatient, patientScope } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';
import { presentPatientBasic, presentPatientDetail, presentPatientListItem } from './presenter.js';

async function loginOf(db: Queryable, userId: number): Promise<string> {
  const [account] = await db.select({ login: users.login }).from(users).where(eq(users.id, userId));
  return account?.login ?? '';
}

export async function getPatient(db: Queryable, actor: Actor, id: number): Promise<PatientDetail> {
  const row = await findReachablePatient(db, actor, id);
  const [login, [doctor], [unit], [inclusion], meds, others] = await Promise.all([
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
  ]);
  return presentPatientDetail(row, {
    login,
    doctor: doctor ?? { id: row.doctor_id, firstname: '', surname: '' },
    unit: unit ?? { id: row.unit_id, name: '' },
    inclusion: inclusion ?? null,
    medicines: meds,
    additional_medicines: others,
  });
}

export async function getPatientBasic(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  return presentPatientBasic(row, await loginOf(db, row.user_id));
}

/** Patients for pickers (audit filter, later samples): reachable, not deleted. */
export async function allPatients(db: Database, actor: Actor) {
  const rows = await db
    .select({
      id: patients.id,
      user_id: patients.user_id,
      login: users.login,
      firstname: patients.firstname,
      surname: patients.surname,
      pesel: patients.pesel,
      unit_id: patients.unit_id,
      deleted_at: patients.deleted_at,
    })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.user_id))
    .where(and(patientScope(actor), isNull(patients.deleted_at)))
    .orderBy(asc(patients.surname), asc(patients.firstname));
  return {
    data: rows.map((row) => presentPatientBasic(row, row.login)),
    total: rows.length,
    total_kind: 'exact' as const,
  };
}

/**
 * The text the patients search looks in: "surname firstname surname pesel", so that "Jan
 * Kowalski", "Kowalski Jan" and parts of either or of the PESEL all match one expression, the
 * one indexed by patients_search_trgm_idx (migration 0004). Keep the two in step.
 */
export const patientSearchText = sql`${patients.surname} || ' ' || ${patients.firstname} || ' ' || ${patients.surname} || ' ' || ${patients.pesel}`;

const sortable = {
  id: patients.id,
  surname: patients.surname,
  pesel: patients.pesel,
  group: inclusionCriteriaGroups.nr,
};

function listFilter(actor: Actor, query: PatientListQuery) {
  return and(
    patientScope(actor),
    searchAny(query.search, [patientSearchText]),
    // Whole groups and single subgroups chosen together mean "any of them".
    or(
      query.groups ? inArray(patientInclusions.group_id, query.groups) : undefined,
      query.sub_groups ? inArray(patientInclusions.subgroup_id, query.sub_groups) : undefined,
    ),
    query.doctors ? inArray(patients.doctor_id, query.doctors) : undefined,
    query.medicines
      ? sql`exists (select 1 from ${patientMedicines} pm where pm.patient_id = ${patients.id} and pm.medicine_id in ${query.medicines})`
      : undefined,
    query.is_finished === undefined ? undefined : eq(patients.is_finished, query.is_finished === 1),
  );
}

export async function listPatients(db: Database, actor: Actor, query: PatientListQuery) {
  const where = listFilter(actor, query);
  const [rows, [count]] = await Promise.all([
    db
      .select({
        patient: patients,
        doctor: { id: doctors.id, firstname: doctors.firstname, surname: doctors.surname },
        group: {
          id: inclusionCriteriaGroups.id,
          nr: inclusionCriteriaGroups.nr,
          name: inclusionCriteriaGroups.name,
        },
        subgroup: { id: inclusionCriteriaSubgroups.id, name: inclusionCriteriaSubgroups.name },
      })
      .from(patients)
      .innerJoin(doctors, eq(doctors.id, patients.doctor_id))
      .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
      .leftJoin(inclusionCriteriaGroups, eq(inclusionCriteriaGroups.id, patientInclusions.group_id))
      .leftJoin(
        inclusionCriteriaSubgroups,
        eq(inclusionCriteriaSubgroups.id, patientInclusions.subgroup_id),
      )
      .where(where)
      .orderBy(...orderBy(sortable, query.order_by, query.order_direction, patients.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ total: countAll })
      .from(patients)
      .leftJoin(patientInclusions, eq(patientInclusions.patient_id, patients.id))
      .where(where),
  ]);
  const ids = rows.map((r) => r.patient.id);
  const meds = ids.length
    ? await db
        .select({
          patientId: patientMedicines.patient_id,
          id: medicines.id,
          name: medicines.name,
          dose: patientMedicines.dose,
        })
        .from(patientMedicines)
        .innerJoin(medicines, eq(medicines.id, patientMedicines.medicine_id))
        .where(inArray(patientMedicines.patient_id, ids))
        .orderBy(asc(medicines.name))
    : [];
  const data = rows.map(({ patient, doctor, group, subgroup }) =>
    presentPatientListItem(patient, {
      doctor,
      group,
      subgroup,
      medicines: meds
        .filter((m) => m.patientId === patient.id)
        .map(({ id, name, dose }) => ({ id, name, dose })),
    }),
  );
  return { data, total_count: count?.total ?? 0, total_kind: 'exact' as const };
}

/**
 * success (valid and free), exist_patient (taken) or validation_error (not a valid PESEL).
 * `exceptId` (the patient being edited) must be one the actor reaches, 404 otherwise: with
 * another unit's patient it would tell whose PESEL that is.
 */
export async function validatePesel(db: Database, actor: Actor, pesel: string, exceptId?: number) {
  if (exceptId !== undefined) await findReachablePatient(db, actor, exceptId);
  if (!parsePesel(pesel)) return 'validation_error' as const;
  const [taken] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(
      and(eq(patients.pesel, pesel), exceptId ? sql`${patients.id} <> ${exceptId}` : undefined),
    )
    .limit(1);
  return taken ? ('exist_patient' as const) : ('success' as const);
}
