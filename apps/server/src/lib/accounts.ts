import { and, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation } from './errors.js';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inTransaction } from '../db/client.js';
import type { Database, Queryable, Transaction } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import type { admins, doctors, monitors, patients } from '../db/schema.js';
import { generatePassword, hashPassword } from './passwords.js';

/**
 * The account life cycle shared by administrators, doctors, monitors and patients: each has a
 * record (one of these tables) beside its `users` row, and both are soft-deleted and restored
 * together.
 */
export type AccountRecordTable = typeof admins | typeof doctors | typeof monitors | typeof patients;

// The tables share `id` and `deleted_at`; Drizzle cannot update a union of tables, so the
// statements below see the common shape.
type CommonShape = PgTable & { id: PgColumn; deleted_at: PgColumn };

async function setDeletedAt(
  tx: Transaction,
  table: AccountRecordTable,
  recordId: number,
  userId: number,
  deletedAt: Date | null,
) {
  const record = table as unknown as CommonShape;
  await tx.update(record).set({ deleted_at: deletedAt }).where(eq(record.id, recordId));
  await tx.update(users).set({ deleted_at: deletedAt }).where(eq(users.id, userId));
}

/** Soft delete: the account can no longer sign in and every open session ends; data stays. */
export async function softDeleteAccount(
  tx: Transaction,
  table: AccountRecordTable,
  recordId: number,
  userId: number,
): Promise<void> {
  await setDeletedAt(tx, table, recordId, userId, new Date());
  await revokeAllSessions(tx, userId);
}

/** Undoes `softDeleteAccount`; the old password works again. */
export async function restoreAccount(
  tx: Transaction,
  table: AccountRecordTable,
  recordId: number,
  userId: number,
): Promise<void> {
  await setDeletedAt(tx, table, recordId, userId, null);
}

/** Ends every session of a user: on logout, password change, password reset and deletion. */
export async function revokeAllSessions(db: Queryable, userId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revoked_at: new Date() })
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)));
}

/**
 * Sets a password hash that the user must replace at the next sign-in (changed_password_at
 * empty); every earlier session ends.
 */
export async function resetPassword(db: Queryable, userId: number, passwordHash: string) {
  await db
    .update(users)
    .set({ password_hash: passwordHash, changed_password_at: null, updated_at: new Date() })
    .where(eq(users.id, userId));
  await revokeAllSessions(db, userId);
}

/**
 * New login details: a generated password replaces the old one at once and is returned once, to
 * be printed. Hashing runs before the transaction (PGlite has one connection).
 */
export async function resetCredentials(
  db: Database,
  actorUserId: number | null,
  userId: number,
): Promise<string> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  await inTransaction(db, actorUserId, (tx) => resetPassword(tx, userId, passwordHash));
  return password;
}

/**
 * The login is taken: the same login in another letter case, or one that looks like it (the
 * skeleton index of migration 0006, ADR 016).
 */
export function isLoginTaken(error: unknown): boolean {
  return (
    isUniqueViolation(error, 'users_login_lower_key') ||
    isUniqueViolation(error, 'users_login_skeleton_key')
  );
}
