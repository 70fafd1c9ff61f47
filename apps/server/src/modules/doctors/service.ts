import type { Doctor, DoctorListQuery, CredentialPair } from '@portal/shared';
import type { doctorBody, doctorUpdateBody } from '@portal/shared';
import type { z } from 'zod';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { doctors, units, users } from '../../db/schema.js';
import {
  isLoginTaken,
  resetCredentials,
  restoreAccount,
  softDeleteAccount,
} from '../../lib/accounts.js';
import { conflict, invalid, isForeignKeyViolation, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { offsetOf, orderBy, searchAny } from '../../lib/listing.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { claimVersion } from '../../lib/versions.js';
import { unitScope } from '../../policies/units.js';
import type { Actor } from '../../plugins/policy.js';

type DoctorInput = z.output<typeof doctorBody>;
type DoctorUpdateInput = z.output<typeof doctorUpdateBody>;

const columns = {
  id: doctors.id,
  user_id: doctors.user_id,
  firstname: doctors.firstname,
  surname: doctors.surname,
  email: doctors.email,
  phone_number: doctors.phone_number,
  unit_id: doctors.unit_id,
  deleted_at: doctors.deleted_at,
  version: doctors.version,
  unit: {
    name: units.name,
    street: units.street,
    building_nr: units.building_nr,
    postcode: units.postcode,
    city: units.city,
  },
};

type DoctorRow = { deleted_at: Date | null; user_id: number } & Omit<Doctor, 'deleted_at'>;

function present({ user_id: _userId, ...row }: DoctorRow): Doctor {
  return { ...row, deleted_at: row.deleted_at?.toISOString() ?? null };
}

const selectDoctors = (db: Queryable) =>
  db.select(columns).from(doctors).innerJoin(units, eq(units.id, doctors.unit_id));

const sortable = {
  id: doctors.id,
  surname: doctors.surname,
  email: doctors.email,
  unit: units.name,
  phone_number: doctors.phone_number,
};

/** The doctor's own text a search looks in, as one expression: the trigram index of 0010. */
const doctorSearchText = sql`${doctors.firstname} || ' ' || ${doctors.surname} || ' ' || ${doctors.email} || ' ' || ${doctors.phone_number}`;

/**
 * A search matches the doctor's own text or the unit's name. The units matching are listed first
 * (`= any(array(…))`), so that both halves of the OR are index conditions on doctors.
 */
function doctorSearch(db: Database, term: string | undefined) {
  const own = searchAny(term, [doctorSearchText]);
  const unitName = searchAny(term, [units.name]);
  if (!own || !unitName) return undefined;
  const matchingUnits = db.select({ id: units.id }).from(units).where(unitName);
  return or(own, sql`${doctors.unit_id} = any(array(${matchingUnits}))`);
}

/**
 * Deferred join: the page's doctor ids first (joined to units only to sort by the unit's name),
 * then those doctors with their units.
 */
export async function listDoctors(db: Database, query: DoctorListQuery) {
  const where = and(
    doctorSearch(db, query.search),
    query.unit_id ? eq(doctors.unit_id, query.unit_id) : undefined,
  );
  const pageIds = (
    query.order_by === 'unit'
      ? db.select({ id: doctors.id }).from(doctors).innerJoin(units, eq(units.id, doctors.unit_id))
      : db.select({ id: doctors.id }).from(doctors)
  )
    .where(where)
    .orderBy(...orderBy(sortable, query.order_by, query.order_direction, doctors.id))
    .limit(query.limit)
    .offset(offsetOf(query.page, query.limit));
  const [ids, total] = await Promise.all([
    pageIds.then((rows) => rows.map((row) => row.id)),
    listTotal(db, {
      key: totalKey('doctors', { search: query.search || undefined, unit: query.unit_id }),
      rows: () => db.select({ id: doctors.id }).from(doctors).where(where),
      ...(where ? {} : { unfilteredTable: 'doctors' }),
    }),
  ]);
  const rows = ids.length === 0 ? [] : await selectDoctors(db).where(inArray(doctors.id, ids));
  return pagedAnswer(inOrderOf(ids, rows, (row) => row.id).map(present), total);
}

/** Doctors that can be chosen in forms, optionally of one unit; a doctor sees the own unit. */
export async function allDoctors(db: Database, actor: Actor, unitId: number | undefined) {
  const scope = unitScope(actor);
  if (scope !== null && unitId !== undefined && unitId !== scope) return { data: [] };
  const unit = scope ?? unitId;
  const rows = await selectDoctors(db)
    .where(and(isNull(doctors.deleted_at), unit ? eq(doctors.unit_id, unit) : undefined))
    .orderBy(asc(doctors.surname), asc(doctors.firstname));
  return { data: rows.map(present) };
}

async function findDoctor(db: Queryable, id: number): Promise<DoctorRow> {
  const [row] = await selectDoctors(db).where(eq(doctors.id, id));
  if (!row) throw notFound();
  return row;
}

export async function getDoctor(db: Database, id: number): Promise<Doctor> {
  return present(await findDoctor(db, id));
}

/** Maps the database's refusals to the answers of docs/api-conventions.md: a taken e-mail, a unit that is gone. */
function mapWriteError(error: unknown): never {
  if (isLoginTaken(error)) throw conflict('exist_doctor');
  if (isForeignKeyViolation(error)) throw invalid({ unit_id: ['required'] });
  throw error;
}

async function assertUnitUsable(db: Queryable, unitId: number) {
  const [unit] = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.id, unitId), isNull(units.deleted_at)));
  if (!unit) throw invalid({ unit_id: ['required'] });
}

/**
 * Creates the doctor and the doctor's account (login = e-mail) with a random password that nobody
 * knows; an administrator prints login details to hand them over.
 */
export async function createDoctor(
  db: Database,
  actor: Actor | null,
  body: DoctorInput,
): Promise<Doctor> {
  const passwordHash = await hashPassword(generatePassword());
  try {
    return await inTransaction(db, actor?.userId ?? null, async (tx) => {
      await assertUnitUsable(tx, body.unit_id);
      const [user] = await tx
        .insert(users)
        .values({ login: body.email, password_hash: passwordHash, role: 'doctor' })
        .returning({ id: users.id });
      const [row] = await tx
        .insert(doctors)
        .values({ ...body, user_id: user!.id })
        .returning({ id: doctors.id });
      return present(await findDoctor(tx, row!.id));
    });
  } catch (error) {
    mapWriteError(error);
  }
}

export async function updateDoctor(
  db: Database,
  actor: Actor,
  id: number,
  { version, ...body }: DoctorUpdateInput,
): Promise<Doctor> {
  try {
    return await inTransaction(db, actor.userId, async (tx) => {
      // First, so that a simultaneous edit waits for this one and then answers 409.
      await claimVersion(tx, doctors, id, version);
      const current = await findDoctor(tx, id);
      if (current.unit_id !== body.unit_id) await assertUnitUsable(tx, body.unit_id);
      await tx
        .update(doctors)
        .set({ ...body, updated_at: new Date() })
        .where(eq(doctors.id, id));
      if (current.email !== body.email) {
        await tx
          .update(users)
          .set({ login: body.email, updated_at: new Date() })
          .where(eq(users.id, current.user_id));
      }
      return present(await findDoctor(tx, id));
    });
  } catch (error) {
    mapWriteError(error);
  }
}

/** Soft delete: the doctor can no longer sign in and every open session ends. */
export async function deleteDoctor(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findDoctor(tx, id);
    if (current.deleted_at) return;
    await softDeleteAccount(tx, doctors, id, current.user_id);
  });
}

export async function restoreDoctor(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findDoctor(tx, id);
    if (!current.deleted_at) return;
    await restoreAccount(tx, doctors, id, current.user_id);
  });
}

/**
 * Generates a new password for printing; the doctor must replace it at the next sign-in. Only
 * administrators reach this (doctors.manage), so it is never the actor's own account.
 */
export async function printDoctorLoginDetails(
  db: Database,
  actor: Actor | null,
  id: number,
): Promise<CredentialPair> {
  const current = await findDoctor(db, id);
  if (current.deleted_at) throw notFound();
  const password = await resetCredentials(db, actor?.userId ?? null, current.user_id);
  return { login: current.email, password };
}
