import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { SMTP_DEFAULTS, issuesByField, smtpValue } from '@portal/shared';
import type { SmtpTestFailure, SmtpView } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema.js';
import { AppError, conflict, invalid } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import { claimSettingVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';

/** The `settings` key of the mail server; its password is sealed in `secret` like the lab's. */
export const SMTP_KEY = 'smtp';

type Row = typeof settings.$inferSelect;

async function rowOf(db: Database): Promise<Row | undefined> {
  const [row] = await db.select().from(settings).where(eq(settings.key, SMTP_KEY));
  return row;
}

function present(row: Row | undefined): SmtpView {
  const stored = (row?.value ?? {}) as Partial<SmtpView>;
  // The password never leaves the server: only whether one is stored.
  return { ...SMTP_DEFAULTS, ...stored, password: '', password_set: Boolean(row?.secret) };
}

export async function readSmtp(db: Database): Promise<{ value: SmtpView; version: number }> {
  const row = await rowOf(db);
  return { value: present(row), version: row?.version ?? 0 };
}

/**
 * Saves the mail server. An empty password keeps the stored one; a user without a password is
 * refused (a server that wants a login wants both), as is a password with no key to seal it.
 */
export async function saveSmtp(
  db: Database,
  secrets: SecretBox | null,
  actor: Actor,
  value: unknown,
  version: number | undefined,
): Promise<{ value: SmtpView; version: number }> {
  const parsed = smtpValue.safeParse(value);
  if (!parsed.success) {
    const errors = issuesByField(parsed.error.issues);
    throw invalid(
      Object.fromEntries(
        Object.entries(errors).map(([field, codes]) => [
          field === '_' ? 'value' : `value.${field}`,
          codes,
        ]),
      ),
    );
  }
  const { password, ...rest } = parsed.data;
  let secret: string | null | undefined;
  if (password) {
    if (!secrets) throw new AppError(503, 'secret_key_missing');
    secret = secrets.encrypt(password);
  } else if (!rest.user) {
    // No login: no password either (an anonymous relay).
    secret = null;
  } else if (!(await rowOf(db))?.secret) {
    throw invalid({ 'value.password': ['required'] });
  }
  const row = await inTransaction(db, actor.userId, async (tx) => {
    const changes = {
      value: rest,
      ...(secret === undefined ? {} : { secret }),
      updated_by: actor.userId,
      updated_at: new Date(),
    };
    if (version === undefined) {
      const [saved] = await tx
        .insert(settings)
        .values({ key: SMTP_KEY, ...changes })
        .onConflictDoUpdate({
          target: settings.key,
          set: { ...changes, version: sql`${settings.version} + 1` },
        })
        .returning();
      return saved;
    }
    await claimSettingVersion(tx, settings, SMTP_KEY, version, { set: changes });
    const [saved] = await tx.select().from(settings).where(eq(settings.key, SMTP_KEY));
    return saved;
  });
  if (!row) throw conflict('conflict');
  return { value: present(row), version: row.version };
}

export interface SmtpTransport {
  host: string;
  port: number;
  secure: boolean;
  from: string;
  auth?: { user: string; pass: string };
  tls?: { ca?: string; servername?: string };
}

/**
 * The transport's options with the password unsealed, or null while no server is set. `caFile`
 * (SMTP_CA_FILE) adds a certificate authority to trust besides the system's, for a hospital's
 * own CA.
 */
export async function smtpTransport(
  db: Database,
  secrets: SecretBox | null,
  caFile: string | null | undefined,
): Promise<SmtpTransport | null> {
  const row = await rowOf(db);
  const view = present(row);
  if (!view.host || !view.from) return null;
  const pass = row?.secret && secrets ? secrets.decrypt(row.secret) : null;
  return {
    host: view.host,
    port: view.port,
    secure: view.secure,
    from: view.from,
    ...(view.user ? { auth: { user: view.user, pass: pass ?? '' } } : {}),
    ...(caFile ? { tls: { ca: await readFile(caFile, 'utf8') } } : {}),
  };
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Fixed per event and user, so a resend after a crash is recognisably the same message. */
  messageId?: string;
}

/** What went wrong with a sending, and whether trying again later can help. */
export class SendFailure extends Error {
  constructor(
    readonly status: SmtpTestFailure,
    readonly permanent: boolean,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

/**
 * Sends one message. STARTTLS is used whenever the server offers it (nodemailer's default on a
 * port without `secure`); a certificate that does not verify fails the sending. Errors come back
 * as a SendFailure naming what did not work.
 */
export async function sendMail(transport: SmtpTransport, mail: OutgoingMail): Promise<void> {
  const transporter = nodemailer.createTransport({
    host: transport.host,
    port: transport.port,
    secure: transport.secure,
    ...(transport.auth ? { auth: transport.auth } : {}),
    ...(transport.tls ? { tls: transport.tls } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transporter.sendMail({
      from: transport.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
    });
  } catch (error) {
    throw classify(error);
  } finally {
    transporter.close();
  }
}

interface MailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Names a nodemailer error; 5xx refusals of the message or recipient are permanent (a bounce). */
export function classify(error: unknown): SendFailure {
  const e = (error ?? {}) as MailerError;
  const message = (e.response ?? e.message ?? String(error)).slice(0, 500);
  if (e.code === 'EAUTH') return new SendFailure('smtp_auth_failed', false, message);
  if (e.code === 'ETLS' || /certificate|ssl|tls/i.test(e.message ?? '')) {
    return new SendFailure('smtp_tls_failed', false, message);
  }
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) {
    return new SendFailure('smtp_refused', e.responseCode >= 500, message);
  }
  return new SendFailure('smtp_unreachable', false, message);
}
