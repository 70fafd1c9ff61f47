import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '@portal/shared';
import type { AccountRole, ChangePasswordBody, SessionUser } from '@portal/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { revokeAllSessions } from '../../lib/accounts.js';
import { announceWrite } from '../../lib/list-totals-channel.js';
import {
  admins,
  doctors,
  monitors,
  patients,
  sessions,
  usedRefreshTokens,
  users,
} from '../../db/schema.js';
import { AppError, invalid, unauthorized } from '../../lib/errors.js';
import type { LoginThrottle } from '../../lib/login-throttle.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { newToken, tokenDigest } from '../../lib/tokens.js';
import { permissionsOf } from '../../plugins/policy.js';
import type { Actor } from '../../plugins/policy.js';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
  user: SessionUser;
}

/**
 * The account behind a login of the given role, with the record that must stay live for it to
 * sign in: the administrator's, the doctor's or the patient's (a deleted patient signs in no more).
 */
async function findAccount(db: Queryable, role: AccountRole, login: string) {
  const [row] = await db
    .select({
      userId: users.id,
      passwordHash: users.password_hash,
      deletedAt: users.deleted_at,
      recordDeletedAt:
        role === 'admin' || role === 'iod'
          ? admins.deleted_at
          : role === 'doctor'
            ? doctors.deleted_at
            : role === 'monitor'
              ? monitors.deleted_at
              : patients.deleted_at,
      patientId: patients.id,
    })
    .from(users)
    .leftJoin(admins, eq(admins.user_id, users.id))
    .leftJoin(doctors, eq(doctors.user_id, users.id))
    .leftJoin(monitors, eq(monitors.user_id, users.id))
    .leftJoin(patients, eq(patients.user_id, users.id))
    .where(and(sql`lower(${users.login}) = lower(${login})`, eq(users.role, role)))
    .limit(1);
  return row;
}

/**
 * The user as the web app (or, for a patient, the patient app) sees it. A patient's name and
 * unit come from the patient row; a deleted patient has no session.
 */
export async function loadSessionUser(db: Queryable, userId: number): Promise<SessionUser> {
  const [row] = await db
    .select({
      id: users.id,
      login: users.login,
      role: users.role,
      changed_password_at: users.changed_password_at,
      doctor_id: doctors.id,
      firstname: doctors.firstname,
      surname: doctors.surname,
      unit_id: doctors.unit_id,
      monitor: { firstname: monitors.firstname, surname: monitors.surname },
      patient: {
        id: patients.id,
        firstname: patients.firstname,
        surname: patients.surname,
        unit_id: patients.unit_id,
        deleted_at: patients.deleted_at,
      },
    })
    .from(users)
    .leftJoin(doctors, eq(doctors.user_id, users.id))
    .leftJoin(monitors, eq(monitors.user_id, users.id))
    .leftJoin(patients, eq(patients.user_id, users.id))
    .where(eq(users.id, userId));
  if (!row) throw unauthorized();
  const { patient, monitor, ...user } = row;
  const base = {
    ...user,
    changed_password_at: row.changed_password_at?.toISOString() ?? null,
    permissions: permissionsOf(row.role),
  };
  // A monitor's name comes from the monitor row; its units travel with the actor, not here.
  if (row.role === 'monitor' && monitor) return { ...base, ...monitor };
  if (row.role !== 'patient') return base;
  if (!patient || patient.deleted_at) throw unauthorized();
  return {
    ...base,
    firstname: patient.firstname,
    surname: patient.surname,
    unit_id: patient.unit_id,
    patient_id: patient.id,
  };
}

async function issueSession(db: Queryable, userId: number): Promise<IssuedSession> {
  const accessToken = newToken();
  const refreshToken = newToken();
  const now = Date.now();
  const refreshExpiresAt = new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000);
  await db.insert(sessions).values({
    user_id: userId,
    access_token_hash: tokenDigest(accessToken),
    access_expires_at: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
    refresh_token_hash: tokenDigest(refreshToken),
    refresh_expires_at: refreshExpiresAt,
  });
  return { accessToken, refreshToken, refreshExpiresAt, user: await loadSessionUser(db, userId) };
}

export async function login(
  db: Database,
  throttle: LoginThrottle,
  input: { role: AccountRole; login: string; password: string; address: string },
): Promise<IssuedSession> {
  // The attempt is counted before the password is hashed, so parallel guesses cannot all pass a
  // check made before any of them failed (ADR 016).
  const reservation = await throttle.reserve(input.login, input.address);
  if (!reservation.allowed) {
    throw new AppError(429, 'too_many_attempts', { retry_after: reservation.retryAfter });
  }

  const account = await findAccount(db, input.role, input.login);
  const usable =
    account &&
    !account.deletedAt &&
    !account.recordDeletedAt &&
    // A patient account without its patient row is no one's.
    (input.role !== 'patient' || account.patientId !== null);
  // Hashing happens outside any transaction (PGlite has one connection).
  const ok = usable
    ? await verifyPassword(account.passwordHash, input.password)
    : (await burnPasswordCheck(input.password), false);
  if (!ok || !account) {
    throw new AppError(401, 'invalid_credentials', { error: 'Invalid credentials' });
  }
  await throttle.forgive(reservation);
  return issueSession(db, account.userId);
}

/**
 * Swaps a refresh token for a new pair; the old refresh token stops working at once. A token
 * that was already swapped, presented again, means two holders (a thief and the user): the whole
 * session it belongs to ends, so the newer tokens stop working too (ADR 003). Two parallel
 * refreshes with one token count as that as well: one wins, the other ends the session.
 */
export async function refresh(db: Database, refreshToken: string): Promise<IssuedSession> {
  const accessToken = newToken();
  const nextRefresh = newToken();
  const digest = tokenDigest(refreshToken);
  const now = Date.now();
  const refreshExpiresAt = new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000);
  const rotated = await inTransaction(db, null, async (tx) => {
    // The row lock of this update orders parallel refreshes: the later one waits, then finds the
    // token gone and (in a new statement, after this commit) in used_refresh_tokens.
    const [row] = await tx
      .update(sessions)
      .set({
        access_token_hash: tokenDigest(accessToken),
        access_expires_at: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
        refresh_token_hash: tokenDigest(nextRefresh),
        refresh_expires_at: refreshExpiresAt,
      })
      .where(
        and(
          eq(sessions.refresh_token_hash, digest),
          isNull(sessions.revoked_at),
          gt(sessions.refresh_expires_at, new Date(now)),
        ),
      )
      .returning({ id: sessions.id, userId: sessions.user_id });
    if (!row) return undefined;
    // The swapped token's expiry is not returned by the update (it is overwritten); the new one
    // is later than it, so the row outlives the token it remembers.
    await tx
      .insert(usedRefreshTokens)
      .values({ token_hash: digest, session_id: row.id, expires_at: refreshExpiresAt });
    // Old rows go a batch at a time, on the way.
    await tx.execute(sql`
      delete from ${usedRefreshTokens} where ${usedRefreshTokens.token_hash} in (
        select ${usedRefreshTokens.token_hash} from ${usedRefreshTokens}
        where ${usedRefreshTokens.expires_at} < ${new Date(now).toISOString()}::timestamptz
        limit 100 for update skip locked)`);
    return row;
  });
  if (!rotated) {
    await revokeReusedFamily(db, digest);
    throw unauthorized();
  }
  const user = await loadSessionUser(db, rotated.userId);
  return { accessToken, refreshToken: nextRefresh, refreshExpiresAt, user };
}

/** Ends the session a reused refresh token belonged to, if it was one. */
async function revokeReusedFamily(db: Database, digest: string): Promise<void> {
  const [used] = await db
    .select({ sessionId: usedRefreshTokens.session_id })
    .from(usedRefreshTokens)
    .where(eq(usedRefreshTokens.token_hash, digest));
  if (!used) return;
  await db
    .update(sessions)
    .set({ revoked_at: new Date() })
    .where(and(eq(sessions.id, used.sessionId), isNull(sessions.revoked_at)));
  // Answered 401, so no write hook tells the nodes: the session's access token ends now (ADR 057).
  await announceWrite(db);
}

/** Signing out ends every session of the user, on every device. */
export async function logout(db: Database, actor: Actor): Promise<void> {
  await revokeAllSessions(db, actor.userId);
}

export async function changePassword(
  db: Database,
  actor: Actor,
  body: ChangePasswordBody,
): Promise<IssuedSession> {
  const [row] = await db
    .select({ passwordHash: users.password_hash })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!row || !(await verifyPassword(row.passwordHash, body.oldPassword))) {
    throw invalid({ oldPassword: ['wrong_password'] });
  }
  const passwordHash = await hashPassword(body.newPassword);
  return inTransaction(db, actor.userId, async (tx) => {
    await tx
      .update(users)
      .set({ password_hash: passwordHash, changed_password_at: new Date(), updated_at: new Date() })
      .where(eq(users.id, actor.userId));
    await revokeAllSessions(tx, actor.userId);
    return issueSession(tx, actor.userId);
  });
}
