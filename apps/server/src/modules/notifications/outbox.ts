import { and, eq, sql } from 'drizzle-orm';
import type { Language, NotificationType } from '@portal/shared';
import type { Database } from '../../db/client.js';
import { notificationsOutbox } from '../../db/schema.js';
import type { SecretBox } from '../../lib/secrets.js';
import { linkOf } from './events.js';
import { mailFor } from './messages.js';
import { SendFailure, sendMail, smtpTransport } from './smtp.js';
import type { SmtpTransport } from './smtp.js';

/** After this many attempts a temporary failure is final too: `failed`, shown to administrators. */
export const MAX_ATTEMPTS = 6;
/** How long a claim holds: a row still `sending` after it was cut off by a crash (ADR 061). */
const CLAIM_SECONDS = 300;
const BATCH = 20;

export interface DeliverOptions {
  db: Database;
  secrets: SecretBox | null;
  publicUrl: string;
  smtpCaFile?: string | null;
  /** The first retry's delay; each next one doubles it (capped at an hour). Tests shorten it. */
  retryBaseMs?: number;
  /** Replaces the SMTP transport's options (tests trust their own certificate this way). */
  transport?: (found: SmtpTransport) => SmtpTransport;
}

export interface DeliverReport {
  sent: number;
  retried: number;
  failed: number;
}

/** 30 s, 1 min, 2 min, … at most an hour, after the n-th failed attempt. */
export function backoffMs(attempts: number, baseMs = 30_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Takes up to BATCH due e-mails for this worker and no other (ADR 061): one UPDATE whose rows
 * come from `FOR UPDATE SKIP LOCKED`, so two workers (two nodes, two jobs) never take the same
 * row. A row is due when pending and its time has come, or when a claim on it has run out.
 */
async function claim(db: Database) {
  const result = await db.execute(sql`
    update ${notificationsOutbox}
    set status = 'sending', attempts = attempts + 1, updated_at = now(),
        locked_until = now() + make_interval(secs => ${CLAIM_SECONDS})
    where id in (
      select id from ${notificationsOutbox}
      where status in ('pending', 'sending') and next_attempt_at <= now()
        and (status = 'pending' or locked_until < now())
      order by next_attempt_at, id
      limit ${BATCH}
      for update skip locked
    )
    returning id, type, recipient, language, payload, attempts, message_id`);
  return (
    result as {
      rows: {
        id: number | string;
        type: NotificationType;
        recipient: string;
        language: Language;
        payload: Record<string, string | number | null>;
        attempts: number;
        message_id: string;
      }[];
    }
  ).rows;
}

/** Whether anything waits for delivery now (the queue's cheap check before it sends a job). */
export async function hasDue(db: Database): Promise<boolean> {
  const result = await db.execute(sql`select exists (
      select 1 from ${notificationsOutbox}
      where status in ('pending', 'sending') and next_attempt_at <= now()
        and (status = 'pending' or locked_until < now())) as due`);
  return Boolean((result as { rows: { due: boolean }[] }).rows[0]?.due);
}

/**
 * Delivers what is due, batch after batch, until nothing is. Each e-mail is marked `sent` the
 * moment its server accepted it; a failure is written with the server's words and either tried
 * again later (backoff) or, when permanent (a 5xx refusal: the address bounces) or the attempts
 * are used up, left `failed`. Without an SMTP server nothing is claimed: the e-mails wait.
 */
export async function deliverDue(options: DeliverOptions): Promise<DeliverReport> {
  const report: DeliverReport = { sent: 0, retried: 0, failed: 0 };
  const { db } = options;
  const found = await smtpTransport(db, options.secrets, options.smtpCaFile);
  if (!found) return report;
  const transport = options.transport ? options.transport(found) : found;
  for (;;) {
    const rows = await claim(db);
    if (rows.length === 0) return report;
    for (const row of rows) {
      const id = Number(row.id);
      const link = `${options.publicUrl}${linkOf(row.type, row.payload)}`;
      const mail = mailFor(row.type, row.language, row.payload, link);
      try {
        await sendMail(transport, { to: row.recipient, ...mail, messageId: row.message_id });
      } catch (error) {
        const failure =
          error instanceof SendFailure
            ? error
            : new SendFailure('smtp_unreachable', false, String(error));
        const final = failure.permanent || row.attempts >= MAX_ATTEMPTS;
        await db
          .update(notificationsOutbox)
          .set({
            status: final ? 'failed' : 'pending',
            locked_until: null,
            last_error: `${failure.status}: ${failure.message}`.slice(0, 1000),
            next_attempt_at: final
              ? sql`now()`
              : sql`now() + make_interval(secs => ${backoffMs(row.attempts, options.retryBaseMs) / 1000})`,
            updated_at: new Date(),
          })
          .where(and(eq(notificationsOutbox.id, id), eq(notificationsOutbox.status, 'sending')));
        if (final) report.failed += 1;
        else report.retried += 1;
        continue;
      }
      await db
        .update(notificationsOutbox)
        .set({
          status: 'sent',
          sent_at: new Date(),
          locked_until: null,
          last_error: null,
          updated_at: new Date(),
        })
        .where(and(eq(notificationsOutbox.id, id), eq(notificationsOutbox.status, 'sending')));
      report.sent += 1;
    }
  }
}
