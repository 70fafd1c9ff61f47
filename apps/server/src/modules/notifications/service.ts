import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { NOTIFICATION_TYPES_BY_ROLE } from '@portal/shared';
import type {
  NotificationList,
  NotificationListQuery,
  NotificationPreferences,
  OutboxList,
  UserNotification,
  notificationPreferencesBody,
} from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import {
  doctors,
  notificationPreferences,
  notificationsOutbox,
  patients,
  userNotifications,
  users,
} from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { linkOf } from './events.js';

type Row = typeof userNotifications.$inferSelect;

function present(row: Row): UserNotification {
  return {
    id: row.id,
    type: row.type,
    params: row.params,
    link: linkOf(row.type, row.params),
    created_at: row.created_at.toISOString(),
    read_at: row.read_at?.toISOString() ?? null,
  };
}

async function unreadOf(db: Database, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userNotifications)
    .where(and(eq(userNotifications.user_id, userId), isNull(userNotifications.read_at)));
  return row?.n ?? 0;
}

/** The signed-in user's notifications, newest first, with how many are unread. */
export async function listNotifications(
  db: Database,
  actor: Actor,
  query: NotificationListQuery,
): Promise<NotificationList> {
  const mine = and(
    eq(userNotifications.user_id, actor.userId),
    query.unread === '1' ? isNull(userNotifications.read_at) : undefined,
  );
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(userNotifications)
      .where(mine)
      .orderBy(desc(userNotifications.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(userNotifications).where(mine),
    unreadOf(db, actor.userId),
  ]);
  return { data: rows.map(present), total_count: total?.n ?? 0, unread };
}

/**
 * Marks one of the user's notifications read (again: no change). Another user's answers 404,
 * as if it did not exist.
 */
export async function markRead(
  db: Database,
  actor: Actor,
  id: number,
): Promise<{ data: UserNotification; unread: number }> {
  const row = await inTransaction(db, actor.userId, async (tx) => {
    const [updated] = await tx
      .update(userNotifications)
      .set({ read_at: sql`coalesce(${userNotifications.read_at}, now())` })
      .where(and(eq(userNotifications.id, id), eq(userNotifications.user_id, actor.userId)))
      .returning();
    return updated;
  });
  if (!row) throw notFound();
  return { data: present(row), unread: await unreadOf(db, actor.userId) };
}

/** The address the account has of its own: the doctor's or patient's e-mail, an admin's login. */
async function accountEmail(db: Database, actor: Actor): Promise<string | null> {
  if (actor.role === 'doctor') {
    const [row] = await db
      .select({ email: doctors.email })
      .from(doctors)
      .where(eq(doctors.user_id, actor.userId));
    return row?.email ?? null;
  }
  if (actor.role === 'patient') {
    const [row] = await db
      .select({ email: patients.email })
      .from(patients)
      .where(and(eq(patients.user_id, actor.userId), isNull(patients.deleted_at)));
    return row?.email ?? null;
  }
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(actor.login) ? actor.login : null;
}

/** The caller's e-mail choices: the kinds the role receives, each on or off, and where to. */
export async function readPreferences(
  db: Database,
  actor: Actor,
): Promise<NotificationPreferences> {
  const [[user], [prefs], account] = await Promise.all([
    db.select({ language: users.language }).from(users).where(eq(users.id, actor.userId)),
    db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.user_id, actor.userId)),
    accountEmail(db, actor),
  ]);
  const off = new Set<string>(prefs?.email_off ?? []);
  return {
    email: Object.fromEntries(NOTIFICATION_TYPES_BY_ROLE[actor.role].map((t) => [t, !off.has(t)])),
    email_address: prefs?.email_address ?? null,
    account_email: account,
    language: user?.language ?? 'pl',
    version: prefs?.version ?? 0,
  };
}

/** The address an e-mail to the caller goes to (the chosen one, else the account's), or null. */
export async function emailOf(db: Database, actor: Actor): Promise<string | null> {
  const prefs = await readPreferences(db, actor);
  return prefs.email_address ?? prefs.account_email;
}

/**
 * Saves the caller's choices: the kinds named change, the others keep theirs; a kind the role does
 * not receive is refused. `version` (optional) guards against a stale screen.
 */
export async function savePreferences(
  db: Database,
  actor: Actor,
  body: ReturnType<typeof notificationPreferencesBody.parse>,
): Promise<NotificationPreferences> {
  const allowed = NOTIFICATION_TYPES_BY_ROLE[actor.role];
  const saved = await inTransaction(db, actor.userId, async (tx) => {
    const [current] = await tx
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.user_id, actor.userId))
      .for('update');
    if (body.version !== undefined && body.version !== (current?.version ?? 0)) return false;
    const off = new Set(current?.email_off ?? []);
    for (const [type, on] of Object.entries(body.email ?? {})) {
      if (!allowed.includes(type as (typeof allowed)[number])) continue;
      if (on) off.delete(type as (typeof allowed)[number]);
      else off.add(type as (typeof allowed)[number]);
    }
    const values = {
      email_off: [...off].sort(),
      email_address:
        body.email_address === undefined ? (current?.email_address ?? null) : body.email_address,
    };
    await tx
      .insert(notificationPreferences)
      .values({ user_id: actor.userId, ...values })
      .onConflictDoUpdate({
        target: notificationPreferences.user_id,
        set: {
          ...values,
          version: sql`${notificationPreferences.version} + 1`,
          updated_at: new Date(),
        },
      });
    if (body.language) {
      await tx.update(users).set({ language: body.language }).where(eq(users.id, actor.userId));
    }
    return true;
  });
  if (!saved) throw conflict('conflict');
  return readPreferences(db, actor);
}

/** The outbox's e-mails of one status, newest first (administrators: failures and bounces). */
export async function listOutbox(
  db: Database,
  query: { status: 'pending' | 'sending' | 'sent' | 'failed'; limit: number; page: number },
): Promise<OutboxList> {
  const where = eq(notificationsOutbox.status, query.status);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notificationsOutbox)
      .where(where)
      .orderBy(desc(notificationsOutbox.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(notificationsOutbox).where(where),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.id,
      type: r.type,
      recipient: r.recipient,
      status: r.status,
      attempts: r.attempts,
      last_error: r.last_error,
      next_attempt_at: r.next_attempt_at.toISOString(),
      sent_at: r.sent_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
    })),
    total_count: total?.n ?? 0,
  };
}
