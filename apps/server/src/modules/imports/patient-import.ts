import { participantKey, patientCreateBody } from '@portal/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Database, Queryable, Transaction } from '../../db/client.js';
import {
  doctors,
  exclusionCriteria,
  inclusionCriteriaGroups,
  inclusionCriteriaSubgroups,
  medicines,
  patientInclusions,
  patientMedicines,
  patients,
  units,
  users,
} from '../../db/schema.js';
import type { CreateInput } from '../patients/index.js';
import { exclusionColumns, personalColumns } from '../patients/index.js';
import { booleanCell, numberCell, peselCell, textCell } from './cells.js';
import { rowError } from './errors.js';
import { turnTaker } from '../../lib/turns.js';
import type { ImportRow } from './read/types.js';

/**
 * An imported account cannot sign in until its credentials are first printed
 * (GET /api/patients/print_password/{id} sets a real password): argon2 cannot verify this, and
 * no hash is computed per row, which a 10,000-patient import could not afford.
 */
export const UNUSABLE_PASSWORD_HASH = '!imported';

/**
 * Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table, and small
 * enough that building one statement (and, on PGlite, running it on this thread) holds other
 * requests for tens of milliseconds, not hundreds (ADR 036).
 */
const CHUNK = 250;

export interface PreparedPatient {
  row: ImportRow;
  input: CreateInput;
}

/** The template's `medicines` cell: `medicine_id:dose;…` (dose optional). */
function medicinesCell(value: ImportRow['values'][string] | undefined): unknown[] | 'bad' {
  const text = textCell(value);
  if (!text) return [];
  const items: unknown[] = [];
  for (const part of text.split(';')) {
    if (!part.trim()) continue;
    const match = /^\s*(\d{1,10})\s*(?::\s*([^:]*?)\s*)?$/.exec(part);
    if (!match) return 'bad';
    items.push({ medicine_id: Number(match[1]), dose: numberCell(match[2] ?? null) });
  }
  return items;
}

/** The registration wizard's body, built from one row of the template. */
function bodyOf(row: ImportRow) {
  const v = row.values;
  return {
    personal: {
      firstname: textCell(v.firstname) ?? '',
      surname: textCell(v.surname) ?? '',
      pesel: peselCell(v.pesel) ?? '',
      address_street: textCell(v.address_street),
      address_building: textCell(v.address_building),
      address_apartment: textCell(v.address_apartment),
      address_postcode: textCell(v.address_postcode),
      address_city: textCell(v.address_city),
      phone_number: textCell(v.phone_number) ?? '',
      email: textCell(v.email),
      weight: numberCell(v.weight),
      height: numberCell(v.height),
      project_number: textCell(v.project_number),
      unit_id: numberCell(v.unit_id) ?? '',
      doctor_id: numberCell(v.doctor_id) ?? '',
      // Consent is collected on paper before a patient is listed for import.
      acceptance: true,
    },
    inclusion: {
      group_id: numberCell(v.group_id),
      subgroup_id: numberCell(v.subgroup_id),
      dose: numberCell(v.dose),
      interval: textCell(v.interval),
    },
    exclusion: {
      is_above_18: booleanCell(v.is_above_18),
      is_classified: booleanCell(v.is_classified),
      exclusion_criteria_id: numberCell(v.exclusion_criteria_id),
    },
    medicines: medicinesCell(v.medicines),
    additional_medicines: [],
  };
}

/** The column a schema issue belongs to: `personal.pesel` → pesel, `medicines.0.dose` → medicines. */
function columnOf(path: readonly PropertyKey[]): string {
  if (path[0] === 'medicines') return 'medicines';
  return String(path[1] ?? path[0] ?? 'firstname');
}

async function inChunks<T, R>(items: T[], work: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  // On PGlite the statements run on this thread: other requests get a turn between chunks.
  const turn = turnTaker();
  for (let i = 0; i < items.length; i += CHUNK) {
    out.push(...(await work(items.slice(i, i + CHUNK))));
    await turn();
  }
  return out;
}

/** The study's configuration, read once, for the registration wizard's reference checks. */
async function loadReferences(db: Queryable) {
  const [unitRows, doctorRows, groupRows, subgroupRows, exclusionRows, medicineRows] =
    await Promise.all([
      db.select({ id: units.id }).from(units).where(isNull(units.deleted_at)),
      db
        .select({ id: doctors.id, unit_id: doctors.unit_id })
        .from(doctors)
        .where(isNull(doctors.deleted_at)),
      db.select({ id: inclusionCriteriaGroups.id }).from(inclusionCriteriaGroups),
      db.select().from(inclusionCriteriaSubgroups),
      db.select({ id: exclusionCriteria.id }).from(exclusionCriteria),
      db.select({ id: medicines.id }).from(medicines).where(eq(medicines.is_visible, true)),
    ]);
  return {
    units: new Set(unitRows.map((r) => r.id)),
    doctors: new Map(doctorRows.map((r) => [r.id, r.unit_id])),
    groups: new Set(groupRows.map((r) => r.id)),
    subgroups: new Map(subgroupRows.map((r) => [r.id, r])),
    exclusions: new Set(exclusionRows.map((r) => r.id)),
    medicines: new Set(medicineRows.map((r) => r.id)),
  };
}

type References = Awaited<ReturnType<typeof loadReferences>>;

/** The same rules as `validateReferences` (modules/patients/references.ts), against maps. */
function referenceErrors(input: CreateInput, refs: References): [string, string][] {
  const errors: [string, string][] = [];
  const { personal, inclusion, exclusion } = input;
  if (!refs.units.has(personal.unit_id)) errors.push(['unit_id', 'required']);
  const doctorUnit = refs.doctors.get(personal.doctor_id);
  if (doctorUnit === undefined) errors.push(['doctor_id', 'required']);
  else if (doctorUnit !== personal.unit_id) errors.push(['doctor_id', 'doctor_not_in_unit']);
  if (inclusion.group_id && !refs.groups.has(inclusion.group_id))
    errors.push(['group_id', 'select_inclusion']);
  if (inclusion.subgroup_id) {
    const subgroup = refs.subgroups.get(inclusion.subgroup_id);
    if (!subgroup || subgroup.group_id !== inclusion.group_id) {
      errors.push(['subgroup_id', 'select_inclusion']);
    } else {
      const allowed = subgroup.is_fixed_dose ? subgroup.doses.slice(0, 1) : subgroup.doses;
      if (inclusion.dose !== null && !allowed.includes(inclusion.dose))
        errors.push(['dose', 'invalid_dose']);
      if (inclusion.interval && !subgroup.allow_custom_interval)
        errors.push(['interval', 'invalid']);
    }
  }
  if (
    exclusion.exclusion_criteria_id !== null &&
    !refs.exclusions.has(exclusion.exclusion_criteria_id)
  )
    errors.push(['exclusion_criteria_id', 'invalid']);
  const ids = input.medicines.map((m) => m.medicine_id);
  if (new Set(ids).size !== ids.length || ids.some((id) => !refs.medicines.has(id)))
    errors.push(['medicines', 'invalid']);
  return errors;
}

/**
 * Checks every row as the registration wizard would (schema, references, PESEL, e-mail and project
 * number unique in the file and among active patients) and lists every error.
 */
export async function preparePatients(
  db: Database,
  rows: ImportRow[],
): Promise<{ prepared: PreparedPatient[]; errors: string[] }> {
  const refs = await loadReferences(db);
  const errors: string[] = [];
  const prepared: PreparedPatient[] = [];
  const peselRows = new Map<string, ImportRow>();
  const emailRows = new Map<string, ImportRow>();
  const projectRows = new Map<string, ImportRow>();
  // 50,000 rows take seconds to check: other requests get a turn every 10 ms (ADR 036).
  const turn = turnTaker();
  for (const row of rows) {
    await turn();
    const parsed = patientCreateBody.safeParse(bodyOf(row));
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = columnOf(issue.path);
        if (seen.has(column)) continue;
        seen.add(column);
        errors.push(rowError(row.file, row.row, column, issue.message));
      }
      continue;
    }
    const input = parsed.data;
    const rowErrors = referenceErrors(input, refs);
    if (peselRows.has(input.personal.pesel)) rowErrors.push(['pesel', 'pesel_taken']);
    else peselRows.set(input.personal.pesel, row);
    const email = input.personal.email;
    if (email && emailRows.has(email)) rowErrors.push(['email', 'exist_patient']);
    else if (email) emailRows.set(email, row);
    // One active patient per project number, compared as a code carries it (ADR 041).
    const projectKey = participantKey(input.personal.project_number);
    if (projectKey && projectRows.has(projectKey))
      rowErrors.push(['project_number', 'project_number_taken']);
    else if (projectKey) projectRows.set(projectKey, row);
    for (const [column, code] of rowErrors) errors.push(patientError(row, column, code));
    if (!rowErrors.length) prepared.push({ row, input });
  }

  // Active patients only: a flushed batch's patients do not block its corrected file (0026).
  const takenPesels = await inChunks([...peselRows.keys()], (chunk) =>
    db
      .select({ value: patients.pesel })
      .from(patients)
      .where(and(inArray(patients.pesel, chunk), isNull(patients.deleted_at))),
  );
  for (const { value } of takenPesels) {
    errors.push(patientError(peselRows.get(value)!, 'pesel', 'pesel_taken'));
  }
  const takenEmails = await inChunks([...emailRows.keys()], (chunk) =>
    db
      .select({ value: sql<string>`lower(${patients.email})` })
      .from(patients)
      .where(and(inArray(sql`lower(${patients.email})`, chunk), isNull(patients.deleted_at))),
  );
  for (const { value } of takenEmails) {
    errors.push(patientError(emailRows.get(value)!, 'email', 'exist_patient'));
  }
  const takenProjects = await inChunks([...projectRows.keys()], (chunk) =>
    db
      .selectDistinct({ value: sql<string>`portal_participant_key(${patients.project_number})` })
      .from(patients)
      .where(
        and(
          inArray(sql`portal_participant_key(${patients.project_number})`, chunk),
          isNull(patients.deleted_at),
          sql`portal_participant_key(${patients.project_number}) <> ''`,
        ),
      ),
  );
  for (const { value } of takenProjects) {
    errors.push(patientError(projectRows.get(value)!, 'project_number', 'project_number_taken'));
  }
  return { prepared, errors };
}

/** exist_patient is the contract's own sentence, not a validation code. */
function patientError(row: ImportRow, column: string, code: string): string {
  if (code === 'exist_patient') {
    return `${row.file}, wiersz ${row.row}, kolumna ${column}: Pacjent o podanym adresie e-mail lub peselu już istnieje.`;
  }
  return rowError(row.file, row.row, column, code);
}

/** "pac" and six digits, as registration makes them, none taken yet nor repeated in the batch. */
async function freshLogins(tx: Queryable, count: number): Promise<string[]> {
  const logins = new Set<string>();
  while (logins.size < count) {
    const wanted = new Set<string>();
    while (wanted.size < count - logins.size) {
      const login = `pac${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
      if (!logins.has(login)) wanted.add(login);
    }
    const taken = await inChunks([...wanted], (chunk) =>
      tx.select({ login: users.login }).from(users).where(inArray(users.login, chunk)),
    );
    const takenSet = new Set(taken.map((r) => r.login));
    for (const login of wanted) if (!takenSet.has(login)) logins.add(login);
  }
  return [...logins];
}

/** Writes the prepared patients with bulk inserts inside the caller's transaction. */
export async function writePatients(
  tx: Transaction,
  batchId: number,
  prepared: PreparedPatient[],
): Promise<number> {
  const logins = await freshLogins(tx, prepared.length);
  const userIds = new Map<string, number>();
  await inChunks(
    logins.map((login) => ({
      login,
      password_hash: UNUSABLE_PASSWORD_HASH,
      role: 'patient' as const,
    })),
    async (chunk) => {
      const rows = await tx
        .insert(users)
        .values(chunk)
        .returning({ id: users.id, login: users.login });
      for (const row of rows) userIds.set(row.login, row.id);
      return rows;
    },
  );
  const patientIds = new Map<string, number>();
  await inChunks(
    prepared.map(({ input }, i) => ({
      ...personalColumns(input.personal),
      ...exclusionColumns(input.exclusion),
      acceptance: input.personal.acceptance,
      user_id: userIds.get(logins[i]!)!,
      import_batch_id: batchId,
    })),
    async (chunk) => {
      const rows = await tx
        .insert(patients)
        .values(chunk)
        .returning({ id: patients.id, pesel: patients.pesel });
      for (const row of rows) patientIds.set(row.pesel, row.id);
      return rows;
    },
  );
  const idOf = (input: CreateInput) => patientIds.get(input.personal.pesel)!;
  await inChunks(
    prepared.map(({ input }) => ({
      patient_id: idOf(input),
      group_id: input.inclusion.group_id!,
      subgroup_id: input.inclusion.subgroup_id,
      dose: input.inclusion.dose,
      interval: input.inclusion.interval,
    })),
    (chunk) =>
      tx.insert(patientInclusions).values(chunk).returning({ id: patientInclusions.patient_id }),
  );
  const medicineRows = prepared.flatMap(({ input }) =>
    input.medicines.map((m) => ({
      patient_id: idOf(input),
      medicine_id: m.medicine_id,
      dose: m.dose,
    })),
  );
  await inChunks(medicineRows, (chunk) =>
    tx.insert(patientMedicines).values(chunk).returning({ id: patientMedicines.id }),
  );
  return prepared.length;
}
