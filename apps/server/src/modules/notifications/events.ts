import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { NotificationType } from '@portal/shared';
import type { Queryable } from '../../db/client.js';
import { notificationsOutbox, userNotifications } from '../../db/schema.js';

/**
 * Something users are told about (ADR 062). Each carries the ids that make its idempotency key:
 * telling the same event twice (a retried request, the daily reminder run twice) adds nothing.
 * Only ids, dates and times travel: never a PESEL, a name or a result.
 */
export type NotificationEvent =
  | { type: 'safety_alert'; alert_id: number; patient_id: number }
  | {
      type: 'kit_order';
      probe_set_id: number;
      patient_id: number;
      decision: 'accepted' | 'rejected';
    }
  | { type: 'visit_reminder'; visit_id: number; patient_id: number; date: string; time: string }
  | { type: 'unmatched_result'; unmatched_id: number; count?: number }
  | { type: 'query_opened'; query_id: number; patient_id: number };

type Params = Record<string, string | number | null>;

/** The event's idempotency key: its kind and the ids that make it one event. */
export function eventKey(event: NotificationEvent): string {
  switch (event.type) {
    case 'safety_alert':
      return `safety_alert:${event.alert_id}`;
    case 'kit_order':
      return `kit_order:${event.probe_set_id}:${event.decision}`;
    case 'visit_reminder':
      // Once per visit and day: a visit moved to another day is reminded of again.
      return `visit_reminder:${event.visit_id}:${event.date}`;
    case 'unmatched_result':
      return `unmatched_result:${event.unmatched_id}`;
    case 'query_opened':
      return `query_opened:${event.query_id}`;
  }
}

/** Where the notification leads, a path of the web app (the e-mail carries it, not the data). */
export function linkOf(type: NotificationType, params: Params): string {
  switch (type) {
    case 'safety_alert':
      return '/alerts';
    case 'kit_order':
    case 'visit_reminder':
      // Patients have no screen in the web app yet: the portal's start page.
      return '/';
    case 'unmatched_result':
      return '/lab/unmatched';
    case 'query_opened':
      return `/patients/card/${String(params.patient_id)}`;
  }
}

function paramsOf(event: NotificationEvent): Params {
  return Object.fromEntries(Object.entries(event).filter(([key]) => key !== 'type'));
}

function patientOf(event: NotificationEvent): number | null {
  return 'patient_id' in event ? event.patient_id : null;
}

interface Recipient extends Record<string, unknown> {
  user_id: number;
  language: 'pl' | 'en';
  email: string | null;
  email_off: string[] | string | null;
}

/** The users an event reaches, by its kind (ADR 062); deleted accounts reach no one. */
function recipientsQuery(event: NotificationEvent) {
  const admins = sql`select a.user_id from admins a join users u on u.id = a.user_id
    where u.deleted_at is null and a.deleted_at is null`;
  switch (event.type) {
    case 'safety_alert':
      // The patient's doctor and every administrator.
      return sql`select d.user_id from patients p join doctors d on d.id = p.doctor_id
          where p.id = ${event.patient_id} and d.deleted_at is null
        union ${admins}`;
    case 'kit_order':
    case 'visit_reminder':
      return sql`select p.user_id from patients p
        where p.id = ${event.patient_id} and p.deleted_at is null`;
    case 'unmatched_result':
      return admins;
    case 'query_opened':
      // The site: every doctor of the patient's unit.
      return sql`select d.user_id from patients p join doctors d on d.unit_id = p.unit_id
        where p.id = ${event.patient_id} and d.deleted_at is null`;
  }
}

/**
 * Who receives the event, with the language and the address of their e-mails: the address the
 * user chose, else the doctor's or patient's e-mail, else an administrator's login when it is an
 * address; null sends nothing but the in-app notification.
 */
async function recipientsOf(tx: Queryable, event: NotificationEvent): Promise<Recipient[]> {
  const result = await tx.execute(sql`
    select u.id as user_id, u.language,
      coalesce(
        np.email_address,
        (select d.email from doctors d where d.user_id = u.id and d.deleted_at is null limit 1),
        (select p.email from patients p where p.user_id = u.id and p.deleted_at is null limit 1),
        case when u.role = 'admin' and u.login ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' then u.login end
      ) as email,
      np.email_off
    from users u
    left join notification_preferences np on np.user_id = u.id
    where u.id in (${recipientsQuery(event)}) and u.deleted_at is null
    order by u.id`);
  return (result as { rows: Recipient[] }).rows;
}

/** text[] arrives as an array from node-postgres and PGlite; a literal '{a,b}' is parsed too. */
function listOf(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value) return [];
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

/**
 * Records an event's notifications inside the caller's transaction (ADR 061): the in-app one for
 * each recipient, and an outbox row for each recipient with an address who wants this kind by
 * e-mail. Committed with the event or not at all, so nothing is lost; the unique keys make a
 * second call with the same event add nothing. Delivery happens later, in the job queue.
 * Returns how many e-mails were queued.
 */
export async function enqueueNotification(
  tx: Queryable,
  event: NotificationEvent,
): Promise<number> {
  const key = eventKey(event);
  const params = paramsOf(event);
  const patientId = patientOf(event);
  const recipients = await recipientsOf(tx, event);
  if (recipients.length === 0) return 0;
  await tx
    .insert(userNotifications)
    .values(
      recipients.map((r) => ({
        user_id: r.user_id,
        event_key: key,
        type: event.type,
        params,
        patient_id: patientId,
      })),
    )
    .onConflictDoNothing();
  const mailed = recipients.filter(
    (r) => r.email !== null && !listOf(r.email_off).includes(event.type),
  );
  if (mailed.length === 0) return 0;
  const inserted = await tx
    .insert(notificationsOutbox)
    .values(
      mailed.map((r) => ({
        event_key: key,
        type: event.type,
        user_id: r.user_id,
        recipient: r.email as string,
        language: r.language,
        patient_id: patientId,
        payload: params,
        message_id: messageIdOf(key, r.user_id),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: notificationsOutbox.id });
  return inserted.length;
}

/**
 * The Message-ID an e-mail keeps through every attempt: the same event to the same user is the
 * same message, so a copy sent again after a crash is recognisable as one (ADR 061).
 */
function messageIdOf(key: string, userId: number): string {
  const digest = createHash('sha256').update(`${key}\n${userId}`).digest('hex').slice(0, 32);
  return `<${digest}.notification@study-portal>`;
}
