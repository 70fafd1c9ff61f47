import type {
  Admin,
  AdminBody,
  AdminListQuery,
  AdminUpdateBody,
  CredentialPair,
} from '@portal/shared';
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { admins, users } from '../../db/schema.js';
import {
  isLoginTaken,
  resetCredentials,
  restoreAccount,
  softDeleteAccount,
} from '../../lib/accounts.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, pagedAnswer, totalKey } from '../../lib/list-totals.js';
import { countAll, offsetOf, orderBy, searchAny } from '../../lib/listing.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { claimVersion } from '../../lib/versions.js';
import { assertMayDeleteAccount, assertMayResetCredentials } from '../../policies/accounts.js';
import type { Actor } from '../../plugins/policy.js';

const columns = {
  id: admins.id,
  user_id: admins.user_id,
  login: users.login,
  role: users.role,
  deleted_at: admins.deleted_at,
  version: admins.version,
};

type AdminRow = {
  id: number;
  user_id: number;
  login: string;
  role: string;
  deleted_at: Date | null;
  version: number;
};

function present(row: AdminRow): Admin {
  return {
    id: row.id,
    login: row.login,
    // A data protection officer keeps an administrators' row too (ADR 053).
    role: row.role === 'iod' ? 'iod' : 'admin',
    deleted_at: row.deleted_at?.toISOString() ?? null,
    version: row.version,
  };
}

const selectAdmins = (db: Queryable) =>
  db.select(columns).from(admins).innerJoin(users, eq(users.id, admins.user_id));

const sortable = { id: admins.id, login: users.login };

/** Deferred join: the page's ids by login (users_login_id_idx), then those administrators. */
export async function listAdmins(db: Database, query: AdminListQuery) {
  const where = searchAny(query.search, [users.login]);
  const [ids, total] = await Promise.all([
    db
      .select({ id: admins.id })
      .from(admins)
      .innerJoin(users, eq(users.id, admins.user_id))
      .where(where)
      .orderBy(...orderBy(sortable, query.order_by, query.order_direction, admins.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit))
      .then((rows) => rows.map((row) => row.id)),
    listTotal(db, {
      key: totalKey('admins', { search: query.search || undefined }),
      rows: () =>
        db
          .select({ id: admins.id })
          .from(admins)
          .innerJoin(users, eq(users.id, admins.user_id))
          .where(where),
      ...(where ? {} : { unfilteredTable: 'admins' }),
    }),
  ]);
  const rows = ids.length === 0 ? [] : await selectAdmins(db).where(inArray(admins.id, ids));
  return pagedAnswer(inOrderOf(ids, rows, (row) => row.id).map(present), total);
}

export async function allAdmins(db: Database) {
  const rows = await selectAdmins(db).where(isNull(admins.deleted_at)).orderBy(asc(users.login));
  return { data: rows.map(present) };
}

async function findAdmin(db: Queryable, id: number): Promise<AdminRow> {
  const [row] = await selectAdmins(db).where(eq(admins.id, id));
  if (!row) throw notFound();
  return row;
}

export async function getAdmin(db: Database, id: number): Promise<Admin> {
  return present(await findAdmin(db, id));
}

function mapWriteError(error: unknown): never {
  if (isLoginTaken(error)) throw conflict('exist_admin');
  throw error;
}

/**
 * Creates an administrator account; the first password is printed with "print login details".
 * The actor is null when the portal itself creates one (the first administrator, the demo).
 */
export async function createAdmin(
  db: Database,
  actor: Actor | null,
  body: AdminBody,
  options: { password?: string; passwordChosen?: boolean } = {},
): Promise<Admin> {
  const passwordHash = await hashPassword(options.password ?? generatePassword());
  try {
    return await inTransaction(db, actor?.userId ?? null, async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          login: body.login,
          password_hash: passwordHash,
          role: body.role ?? 'admin',
          changed_password_at: options.passwordChosen ? new Date() : null,
        })
        .returning({ id: users.id });
      const [row] = await tx
        .insert(admins)
        .values({ user_id: user!.id })
        .returning({ id: admins.id });
      return present(await findAdmin(tx, row!.id));
    });
  } catch (error) {
    mapWriteError(error);
  }
}

export async function updateAdmin(
  db: Database,
  actor: Actor,
  id: number,
  body: AdminUpdateBody,
): Promise<Admin> {
  try {
    return await inTransaction(db, actor.userId, async (tx) => {
      // The login lives on users; the administrator's record carries the version.
      await claimVersion(tx, admins, id, body.version);
      const current = await findAdmin(tx, id);
      await tx
        .update(users)
        .set({ login: body.login, updated_at: new Date() })
        .where(eq(users.id, current.user_id));
      return present(await findAdmin(tx, id));
    });
  } catch (error) {
    mapWriteError(error);
  }
}

/**
 * Soft delete. An administrator cannot delete the own account, and the last active administrator
 * stays, so that the portal never locks everyone out.
 */
export async function deleteAdmin(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findAdmin(tx, id);
    if (current.deleted_at) return;
    assertMayDeleteAccount(actor, current.user_id);
    const [others] = await tx
      .select({ total: countAll })
      .from(admins)
      .innerJoin(users, eq(users.id, admins.user_id))
      // A data protection officer does not keep the portal administered (ADR 053).
      .where(and(isNull(admins.deleted_at), ne(admins.id, id), eq(users.role, 'admin')));
    if (!others?.total) throw new AppError(409, 'last_admin');
    await softDeleteAccount(tx, admins, id, current.user_id);
  });
}

export async function restoreAdmin(db: Database, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, actor.userId, async (tx) => {
    const current = await findAdmin(tx, id);
    if (!current.deleted_at) return;
    await restoreAccount(tx, admins, id, current.user_id);
  });
}

/**
 * New login details for another administrator. The own account is refused (409 own_account):
 * the reset would end this very session before the new password could be shown.
 */
export async function printAdminLoginDetails(
  db: Database,
  actor: Actor,
  id: number,
): Promise<CredentialPair> {
  const current = await findAdmin(db, id);
  if (current.deleted_at) throw notFound();
  assertMayResetCredentials(actor, current.user_id);
  const password = await resetCredentials(db, actor.userId, current.user_id);
  return { login: current.login, password };
}

/** At start: makes sure an administrator exists (README.md "Run it"). */
export async function ensureInitialAdmin(
  db: Database,
  initial: { login: string; password: string | null },
): Promise<
  { created: false } | { created: true; login: string; generatedPassword: string | null }
> {
  const [existing] = await db
    .select({ total: countAll })
    .from(admins)
    .where(isNull(admins.deleted_at));
  if (existing?.total) return { created: false };
  const password = initial.password ?? generatePassword();
  // A password set by IT in the environment counts as chosen; a printed random one must be changed.
  await createAdmin(
    db,
    null,
    { login: initial.login },
    { password, passwordChosen: initial.password !== null },
  );
  return {
    created: true,
    login: initial.login,
    generatedPassword: initial.password ? null : password,
  };
}
