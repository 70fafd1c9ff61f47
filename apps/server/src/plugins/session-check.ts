import { EXPIRED_TOKEN_ERROR } from '@portal/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { preparedOnce } from '../db/client.js';
import type { Database } from '../db/client.js';
import { doctors, monitors, monitorUnits, patients, sessions, users } from '../db/schema.js';
import type { Actor } from './policy.js';
import { unauthorized } from '../lib/errors.js';
import { tokenDigest } from '../lib/tokens.js';

// Every request's session check, below the modules: the auth plugin runs it before any module's
// route, and the auth module (login, refresh, logout) issues the sessions it reads (ADR 047).

/**
 * The session check every request runs, prepared once per database: the statement is planned
 * once per connection instead of on every request, and the query is not rebuilt each time.
 */
function sessionQuery(db: Database) {
  return db
    .select({
      sessionId: sessions.id,
      accessExpiresAt: sessions.access_expires_at,
      userId: users.id,
      login: users.login,
      role: users.role,
      changedPasswordAt: users.changed_password_at,
      userDeletedAt: users.deleted_at,
      doctorId: doctors.id,
      unitId: doctors.unit_id,
      patientId: patients.id,
      patientDeletedAt: patients.deleted_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(doctors, eq(doctors.user_id, users.id))
    .leftJoin(patients, eq(patients.user_id, users.id))
    .where(
      and(eq(sessions.access_token_hash, sql.placeholder('digest')), isNull(sessions.revoked_at)),
    )
    .prepare('authenticate_session');
}
/**
 * Resolves a bearer token to its actor. An expired access token is told apart from an unknown
 * one, so that the web app refreshes only when refreshing can help.
 */
export async function authenticate(db: Database, accessToken: string): Promise<Actor> {
  const query = preparedOnce(db, 'authenticate_session', () => sessionQuery(db));
  const [row] = await query.execute({ digest: tokenDigest(accessToken) });
  if (!row || row.userDeletedAt) throw unauthorized();
  // A patient signs in while the patient row is live: deleting the patient ends the sessions.
  if (row.role === 'patient' && (row.patientId === null || row.patientDeletedAt)) {
    throw unauthorized();
  }
  if (row.accessExpiresAt.getTime() <= Date.now()) throw unauthorized(EXPIRED_TOKEN_ERROR);
  const actor: Actor = {
    userId: row.userId,
    sessionId: row.sessionId,
    login: row.login,
    role: row.role,
    doctorId: row.doctorId,
    unitId: row.unitId,
    changedPasswordAt: row.changedPasswordAt,
  };
  if (row.role === 'monitor') {
    // A monitor reaches the assigned units only (policies/units.ts); a deleted monitor none.
    const assigned = await db
      .select({ unitId: monitorUnits.unit_id })
      .from(monitorUnits)
      .innerJoin(monitors, eq(monitors.id, monitorUnits.monitor_id))
      .where(and(eq(monitors.user_id, row.userId), isNull(monitors.deleted_at)));
    actor.unitIds = assigned.map((unit) => unit.unitId);
  }
  if (row.role === 'patient') {
    // A patient reaches no unit (unitId stays null): only the own row (policies/patients.ts).
    actor.doctorId = null;
    actor.unitId = null;
    actor.patientId = row.patientId;
  }
  return actor;
}
