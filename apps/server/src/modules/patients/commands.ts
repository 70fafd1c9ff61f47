import type { CredentialPair } from '@portal/shared';
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { patients, users } from '../../db/schema.js';
import {
  isLoginTaken,
  resetCredentials,
  restoreAccount,
  softDeleteAccount,
} from '../../lib/accounts.js';
import { conflict, invalid, isUniqueViolation } from '../../lib/errors.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { applyReason } from '../../lib/reasons.js';
import { claimVersion } from '../../lib/versions.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';
import { getPatient } from './queries.js';
import { validateReferences } from './references.js';
import type { CreateInput, UpdateInput } from './references.js';
import { exclusionColumns, personalColumns, writeSections } from './sections.js';

/** A login patients can type: "pac" and six digits. */
function newPatientLogin(): string {
  return `pac${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/**
 * The database refuses a second active patient with the same PESEL or e-mail (any case), also
 * when a deleted one is restored (0026); both answer `exist_patient`. The indexes decide,
 * so no race slips by.
 */
function mapDuplicatePatient(error: unknown): never {
  if (
    isUniqueViolation(error, 'patients_pesel_key') ||
    isUniqueViolation(error, 'patients_email_lower_key')
  ) {
    throw conflict('exist_patient');
  }
  // ADR 041: one active patient per project number; the index decides, so two registrations
  // offered the same next number at once cannot both keep it.
  if (isUniqueViolation(error, 'patients_project_number_key')) {
    throw invalid({ 'personal.project_number': ['project_number_taken'] });
  }
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
      if (attempt < 5 && isLoginTaken(error)) continue;
      mapDuplicatePatient(error);
    }
  }
}

/**
 * Saves the whole edit wizard. The version is claimed first, so that the row stays locked while
 * the sections are rewritten: a simultaneous save of the same version waits, then answers 409
 * conflict instead of interleaving its section writes (a duplicate key) with ours.
 */
export async function updatePatient(db: Database, actor: Actor, id: number, input: UpdateInput) {
  await findChangeablePatient(db, actor, id);
  const before = await getPatient(db, actor, id);
  await validateReferences(
    db,
    actor,
    input,
    before.medicines.map((m) => m.medicine_id),
  );
  try {
    await inTransaction(db, actor.userId, async (tx) => {
      await claimVersion(tx, patients, id, input.version);
      // A qualified patient's sections are entered clinical data: changed only with a reason
      // (ADR 048), decided on the row as it is under the version's lock.
      const [stored] = await tx
        .select({ qualified: patients.is_classified })
        .from(patients)
        .where(eq(patients.id, id));
      await applyReason(tx, stored?.qualified === true, input.reason);
      // Read again under the lock: the sections are diffed against what is stored now.
      const existing = await getPatient(tx, actor, id);
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
    mapDuplicatePatient(error);
  }
}

/** Soft delete: the patient's account stops working; data and audit trail stay. */
export async function deletePatient(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  if (row.deleted_at) return;
  await inTransaction(db, actor.userId, (tx) => softDeleteAccount(tx, patients, id, row.user_id));
}

/**
 * Refused (exist_patient) when another active patient has taken the PESEL or e-mail meanwhile,
 * and (project_number_taken) the project number.
 */
export async function restorePatient(db: Database, actor: Actor, id: number) {
  const row = await findReachablePatient(db, actor, id);
  if (!row.deleted_at) return;
  try {
    await inTransaction(db, actor.userId, (tx) => restoreAccount(tx, patients, id, row.user_id));
  } catch (error) {
    // Another active patient took the project number meanwhile (ADR 041): a conflict to
    // resolve by editing one of them, not a field of this request.
    if (isUniqueViolation(error, 'patients_project_number_key'))
      throw conflict('project_number_taken');
    mapDuplicatePatient(error);
  }
}

/** Sets a new generated password for the patient's account; the old one stops working. */
export async function printPatientPassword(
  db: Database,
  actor: Actor,
  id: number,
): Promise<CredentialPair> {
  const row = await findChangeablePatient(db, actor, id);
  const [account] = await db
    .select({ login: users.login })
    .from(users)
    .where(eq(users.id, row.user_id));
  const password = await resetCredentials(db, actor.userId, row.user_id);
  return { login: account!.login, password };
}
