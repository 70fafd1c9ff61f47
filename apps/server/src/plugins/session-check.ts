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
 * How long a session check is remembered per access-token digest (ADR 057). Any successful write
 * request on any node, a refresh token's reuse and a retention run forget every remembered check
 * at once (lib/list-totals-channel.ts), so this bounds only what no request announces.
 */
export const SESSION_MEMORY_MS = 3_000;
const MAX_REMEMBERED = 10_000;

/** What the session check found: the actor and until when its access token is valid. */
interface Found {
  actor: Actor;
  accessExpiresAt: number;
}

interface Remembered {
  expires: number;
  found: Promise<Found | null>;
}

/** One memory per database: tests open many databases (and "nodes") in one process. */
const memories = new WeakMap<Database, Map<string, Remembered>>();
/** Databases whose checks are not remembered: another node's write could not be heard. */
const deaf = new WeakSet<Database>();

/** Forgets every remembered session check of this database: a session or an account changed. */
export function forgetSessions(db: Database): void {
  memories.get(db)?.clear();
}

/**
 * Whether session checks of this database may be remembered: false while this node cannot hear
 * the other nodes' writes (its LISTEN connection is lost), as for list totals (ADR 056).
 */
export function rememberSessions(db: Database, remember: boolean): void {
  if (remember) deaf.delete(db);
  else deaf.add(db);
  forgetSessions(db);
}

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

/** The live session of this digest and its actor, or null (unknown, revoked, deleted account). */
async function lookUp(db: Database, digest: string): Promise<Found | null> {
  const query = preparedOnce(db, 'authenticate_session', () => sessionQuery(db));
  const [row] = await query.execute({ digest });
  if (!row || row.userDeletedAt) return null;
  // A patient signs in while the patient row is live: deleting the patient ends the sessions.
  if (row.role === 'patient' && (row.patientId === null || row.patientDeletedAt)) return null;
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
  return { actor, accessExpiresAt: row.accessExpiresAt.getTime() };
}

/**
 * The check of this digest, remembered for SESSION_MEMORY_MS. Concurrent first requests of one
 * token share one lookup; a forget drops lookups under way too, so no lookup that began before a
 * revocation is remembered after it. Only live sessions are remembered.
 */
function remembered(db: Database, digest: string, now: number): Promise<Found | null> {
  if (deaf.has(db)) return lookUp(db, digest);
  let memory = memories.get(db);
  if (!memory) {
    memory = new Map();
    memories.set(db, memory);
  }
  const known = memory.get(digest);
  if (known && known.expires > now) return known.found;
  const entry: Remembered = { expires: now + SESSION_MEMORY_MS, found: lookUp(db, digest) };
  if (memory.size >= MAX_REMEMBERED) memory.clear();
  memory.set(digest, entry);
  const forget = () => {
    if (memory.get(digest) === entry) memory.delete(digest);
  };
  void entry.found.then((found) => found ?? forget(), forget);
  return entry.found;
}

/**
 * Resolves a bearer token to its actor. An expired access token is told apart from an unknown
 * one, so that the web app refreshes only when refreshing can help.
 */
export async function authenticate(db: Database, accessToken: string): Promise<Actor> {
  const now = Date.now();
  const found = await remembered(db, tokenDigest(accessToken), now);
  if (!found) throw unauthorized();
  if (found.accessExpiresAt <= now) throw unauthorized(EXPIRED_TOKEN_ERROR);
  // A copy: a remembered actor is shared by the requests of its token.
  return { ...found.actor };
}
