import { parsePesel } from '@portal/shared';
import type {
  CredentialPair,
  PatientDetail,
  PatientListItem,
  PatientListQuery,
  patientCreateBody,
  patientUpdateBody,
} from '@portal/shared';
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable, Transaction } from '../../db/client.js';
import {
  doctors,
  exclusionCriteria,
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
import {
  AppError,
  conflict,
  forbidden,
  invalid,
  isUniqueViolation,
  notFound,
} from '../../lib/errors.js';
import { containsPattern, countAll } from '../../lib/listing.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { randomInt } from 'node:crypto';
import { unitScope } from '../../plugins/policy.js';
import type { Actor } from '../../plugins/policy.js';
import { resetPassword, revokeAllSessions } from '../auth/service.js';

type CreateInput = z.output<typeof patientCreateBody>;
type UpdateInput = z.output<typeof patientUpdateBody>;
type PatientRow = typeof patients.$inferSelect;

/** Rows an actor may reach: every unit for administrators, the own unit for doctors. */
export function patientScope(actor: Actor): SQL | undefined {
  const unit = unitScope(actor);
  return unit === null ? undefined : eq(patients.unit_id, unit);
}

/** The patient row if the actor may reach it; 404 otherwise, even when it exists elsewhere. */
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

/** Checks every reference of a patient form against the study configuration and the actor. */
async function validateReferences(
  db: Database,
  actor: Actor,
  input: CreateInput | UpdateInput,
  keptMedicineIds: readonly number[] = [],
) {
  const { personal, inclusion, exclusion } = input;
  const scope = unitScope(actor);
  if (scope !== null && personal.unit_id !== scope) throw forbidden();

  const errors: Record<string, string[]> = {};
  const [unit] = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.id, personal.unit_id), isNull(units.deleted_at)));
  if (!unit) errors['personal.unit_id'] = ['required'];
  const [doctor] = await db
    .select({ unitId: doctors.unit_id })
    .from(doctors)
    .where(and(eq(doctors.id, personal.doctor_id), isNull(doctors.deleted_at)));
  if (!doctor) errors['personal.doctor_id'] = ['required'];
  else if (doctor.unitId !== personal.unit_id)
    errors['personal.doctor_id'] = ['doctor_not_in_unit'];

  if (inclusion.group_id) {
    const [group] = await db
      .select({ id: inclusionCriteriaGroups.id })
      .from(inclusionCriteriaGroups)
      .where(eq(inclusionCriteriaGroups.id, inclusion.group_id));
    if (!group) errors['inclusion.group_id'] = ['select_inclusion'];
  }
  if (inclusion.subgroup_id) {
    const [subgroup] = await db
      .select()
      .from(inclusionCriteriaSubgroups)
      .where(eq(inclusionCriteriaSubgroups.id, inclusion.subgroup_id));
    if (!subgroup || subgroup.group_id !== inclusion.group_id) {
      errors['inclusion.subgroup_id'] = ['select_inclusion'];
    } else {
      const allowed = subgroup.is_fixed_dose ? subgroup.doses.slice(0, 1) : subgroup.doses;
      if (inclusion.dose !== null && !allowed.includes(inclusion.dose))
        errors['inclusion.dose'] = ['invalid_dose'];
      if (inclusion.interval && !subgroup.allow_custom_interval)
        errors['inclusion.interval'] = ['invalid'];
    }
  }
  if (exclusion.exclusion_criteria_id !== null) {
    const [criterion] = await db
      .select({ id: exclusionCriteria.id })
      .from(exclusionCriteria)
      .where(eq(exclusionCriteria.id, exclusion.exclusion_criteria_id));
    if (!criterion) errors['exclusion.exclusion_criteria_id'] = ['invalid'];
  }
  const ids = input.medicines.map((m) => m.medicine_id);
  if (new Set(ids).size !== ids.length) errors.medicines = ['invalid'];
  // A hidden medicine is no longer offered, but one already on the record may stay.
  const offered = ids.filter((id) => !keptMedicineIds.includes(id));
  if (offered.length) {
    const found = await db
      .select({ id: medicines.id })
      .from(medicines)
      .where(and(inArray(medicines.id, offered), eq(medicines.is_visible, true)));
    if (found.length !== new Set(offered).size) errors.medicines = ['invalid'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

function personalColumns(personal: CreateInput['personal'] | UpdateInput['personal']) {
  const pesel = parsePesel(personal.pesel);
  // The schema already refused an invalid PESEL; this keeps the types honest.
  if (!pesel) throw invalid({ 'personal.pesel': ['invalid_pesel'] });
  return {
    firstname: personal.firstname,
    surname: personal.surname,
    pesel: personal.pesel,
    sex: pesel.sex,
    birth_date: pesel.birthDate,
    address_street: personal.address_street,
    address_building: personal.address_building,
    address_apartment: personal.address_apartment,
    address_postcode: personal.address_postcode,
    address_city: personal.address_city,
    phone_number: personal.phone_number,
    email: personal.email,
    weight: personal.weight,
    height: personal.height,
    project_number: personal.project_number,
    doctor_id: personal.doctor_id,
    unit_id: personal.unit_id,
  };
}

function exclusionColumns(exclusion: CreateInput['exclusion']) {
  return {
    is_above_18: exclusion.is_above_18,
    exclusion_criteria_id: exclusion.exclusion_criteria_id,
    is_classified: exclusion.is_classified,
  };
}

/** A login patients can type: "pac" and six digits. */
function newPatientLogin(): string {
  return `pac${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

function mapPeselConflict(error: unknown): never {
  if (isUniqueViolation(error, 'patients_pesel_key')) throw conflict('exist_patient');
  throw error;
}

export async function createPatient(db: Database, actor: Actor, input: CreateInput) {
  await validateReferences(db, actor, input);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  for (let attempt = 0; ; attempt++) {
    const login = newPatientLogin();
    try {
      const id = await inTransaction(db, actor.userId, async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ login, password_hash: passwordHash, role: 'patient' })
          .returning({ id: users.id });
        const [row] = await tx
          .insert(patients)
          .values({
            ...personalColumns(input.personal),
            ...exclusionColumns(input.exclusion),
            acceptance: input.personal.acceptance,
            user_id: user!.id,
          })
          .returning({ id: patients.id });
        await writeSections(tx, row!.id, input, null);
        return row!.id;
      });
      return {
        id,
        login,
        password,
        firstname: input.personal.firstname,
        surname: input.personal.surname,
      };
    } catch (error) {
      // A generated login may collide with an existing one; draw again.
      if (attempt < 5 && isUniqueViolation(error, 'users_login_lower_key')) continue;
      mapPeselConflict(error);
    }
  }
}

/**
 * Writes inclusion, medicines and other medicines, changing only what differs, so that the audit
 * trail shows what was really edited.
 */
async function writeSections(
  tx: Transaction,
  patientId: number,
  input: CreateInput | UpdateInput,
  existing: PatientDetail | null,
) {
  const inclusion = {
    group_id: input.inclusion.group_id!,
    subgroup_id: input.inclusion.subgroup_id,
    dose: input.inclusion.dose,
    interval: input.inclusion.interval,
  };
  await tx
    .insert(patientInclusions)
    .values({ patient_id: patientId, ...inclusion })
    .onConflictDoUpdate({ target: patientInclusions.patient_id, set: inclusion });

  const wanted = new Map(input.medicines.map((m) => [m.medicine_id, m.dose]));
  const current = new Map((existing?.medicines ?? []).map((m) => [m.medicine_id, m.dose]));
  const removed = [...current.keys()].filter((id) => !wanted.has(id));
  if (removed.length) {
    await tx
      .delete(patientMedicines)
      .where(
        and(
          eq(patientMedicines.patient_id, patientId),
          inArray(patientMedicines.medicine_id, removed),
        ),
      );
  }
  for (const [medicineId, dose] of wanted) {
    if (!current.has(medicineId)) {
      await tx
        .insert(patientMedicines)
        .values({ patient_id: patientId, medicine_id: medicineId, dose });
    } else if (current.get(medicineId) !== dose) {
      await tx
        .update(patientMedicines)
        .set({ dose })
        .where(
          and(
            eq(patientMedicines.patient_id, patientId),
            eq(patientMedicines.medicine_id, medicineId),
          ),
        );
    }
  }

  const leftover = [...(existing?.additional_medicines ?? [])];
  for (const item of input.additional_medicines) {
    const same = leftover.findIndex((o) => o.name === item.name && o.dose === item.dose);
    if (same >= 0) leftover.splice(same, 1);
    else await tx.insert(patientAdditionalMedicines).values({ patient_id: patientId, ...item });
  }
  if (leftover.length) {
    await tx.delete(patientAdditionalMedicines).where(
      inArray(
        patientAdditionalMedicines.id,
        leftover.map((o) => o.id),
      ),
    );
  }
}

export async function updatePatient(db: Database, actor: Actor, id: number, input: UpdateInput) {
  const existing = await getPatient(db, actor, id);
  await validateReferences(
    db,
    actor,
    input,
    existing.medicines.map((m) => m.medicine_id),
  );
  try {
    await inTransaction(db, actor.userId, async (tx) => {
      await tx
        .update(patients)
        .set({
          ...personalColumns(input.personal),
          ...exclusionColumns(input.exclusion),
          ...(input.personal.is_finished === undefined
            ? {}
            : { is_finished: input.personal.is_finished }),
          updated_at: new Date(),
        })
        .where(eq(patients.id, id));
      await writeSections(tx, id, input, existing);
    });
  } catch (error) {
    mapPeselConflict(error);
  }
}

/** Soft delete: the patient's account stops working; data and audit trail stay. */
export async function deletePatient(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  if (row.deleted_at) return;
  await inTransaction(db, actor.userId, async (tx) => {
    const now = new Date();
    await tx.update(patients).set({ deleted_at: now }).where(eq(patients.id, id));
    await tx.update(users).set({ deleted_at: now }).where(eq(users.id, row.user_id));
    await revokeAllSessions(tx, row.user_id);
  });
}

export async function restorePatient(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  if (!row.deleted_at) return;
  await inTransaction(db, actor.userId, async (tx) => {
    await tx.update(patients).set({ deleted_at: null }).where(eq(patients.id, id));
    await tx.update(users).set({ deleted_at: null }).where(eq(users.id, row.user_id));
  });
}

export async function getPatient(db: Queryable, actor: Actor, id: number): Promise<PatientDetail> {
  const row = await findReachablePatient(db, actor, id);
  const [[account], [doctor], [unit], [inclusion], meds, others] = await Promise.all([
    db.select({ login: users.login }).from(users).where(eq(users.id, row.user_id)),
    db
      .select({ id: doctors.id, firstname: doctors.firstname, surname: doctors.surname })
      .from(doctors)
      .where(eq(doctors.id, row.doctor_id)),
    db.select({ id: units.id, name: units.name }).from(units).where(eq(units.id, row.unit_id)),
    db.select().from(patientInclusions).where(eq(patientInclusions.patient_id, id)),
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
  return {
    ...row,
    login: account?.login ?? '',
    is_finished: row.is_finished ? 1 : 0,
    doctor: doctor ?? { id: row.doctor_id, firstname: '', surname: '' },
    unit: unit ?? { id: row.unit_id, name: '' },
    inclusion: inclusion
      ? {
          group_id: inclusion.group_id,
          subgroup_id: inclusion.subgroup_id,
          dose: inclusion.dose,
          interval: inclusion.interval,
        }
      : null,
    medicines: meds,
    additional_medicines: others,
    probes_count: 0,
    past_visit_date: null,
    next_visit_date: null,
    created_at: row.created_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}

export async function getPatientBasic(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  const [account] = await db
    .select({ login: users.login })
    .from(users)
    .where(eq(users.id, row.user_id));
  return {
    id: row.id,
    user_id: row.user_id,
    login: account?.login ?? '',
    firstname: row.firstname,
    surname: row.surname,
    pesel: row.pesel,
    unit_id: row.unit_id,
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}

/** Patients for pickers (audit filter, later probes): reachable, not deleted. */
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
  return { data: rows.map((r) => ({ ...r, deleted_at: null })) };
}

export async function listPatients(db: Database, actor: Actor, query: PatientListQuery) {
  const term = query.search?.trim();
  const pattern = term ? containsPattern(term) : null;
  const where = and(
    patientScope(actor),
    pattern
      ? or(
          ilike(patients.surname, pattern),
          ilike(patients.firstname, pattern),
          ilike(patients.pesel, pattern),
          ilike(sql`${patients.surname} || ' ' || ${patients.firstname}`, pattern),
          ilike(sql`${patients.firstname} || ' ' || ${patients.surname}`, pattern),
        )
      : undefined,
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
  const dir = query.order_direction === 'asc' ? asc : desc;
  const sortable = {
    id: patients.id,
    surname: patients.surname,
    pesel: patients.pesel,
    group: inclusionCriteriaGroups.nr,
  };
  const base = () =>
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
      );
  const [rows, [count]] = await Promise.all([
    base()
      .where(where)
      .orderBy(dir(sortable[query.order_by]), dir(patients.id))
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
  const data: PatientListItem[] = rows.map(({ patient: p, doctor, group, subgroup }) => ({
    id: p.id,
    firstname: p.firstname,
    surname: p.surname,
    pesel: p.pesel,
    phone_number: p.phone_number,
    email: p.email,
    address_street: p.address_street,
    address_building: p.address_building,
    address_apartment: p.address_apartment,
    address_postcode: p.address_postcode,
    address_city: p.address_city,
    group: group?.id ? group : null,
    subgroup: subgroup?.id ? subgroup : null,
    medicines: meds
      .filter((m) => m.patientId === p.id)
      .map(({ id, name, dose }) => ({ id, name, dose })),
    doctor,
    unit_id: p.unit_id,
    is_finished: p.is_finished ? 1 : 0,
    past_visit_date: null,
    next_visit_date: null,
    deleted_at: p.deleted_at?.toISOString() ?? null,
  }));
  return { data, total_count: count?.total ?? 0 };
}

/** success (valid and free), exist_patient (taken) or validation_error (not a valid PESEL). */
export async function validatePesel(db: Database, pesel: string, exceptId?: number) {
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

/** Sets a new generated password for the patient's account; the old one stops working. */
export async function printPatientPassword(
  db: Database,
  actor: Actor,
  id: number,
): Promise<CredentialPair> {
  const row = await findReachablePatient(db, actor, id);
  if (row.deleted_at) throw new AppError(409, 'deleted');
  const [account] = await db
    .select({ login: users.login })
    .from(users)
    .where(eq(users.id, row.user_id));
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  await inTransaction(db, actor.userId, (tx) => resetPassword(tx, row.user_id, passwordHash));
  return { login: account!.login, password };
}
