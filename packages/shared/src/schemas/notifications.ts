import type { AccountRole } from '../constants.js';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../constants.js';
import { emailField, text } from '../validation.js';

/**
 * Notifications (ADR 061, 062): the bell's list, the user's e-mail choices and the SMTP setting.
 */

/** The kinds of event users are told about. */
export const NOTIFICATION_TYPES = [
  'safety_alert',
  'kit_order',
  'visit_reminder',
  'unmatched_result',
  'query_opened',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const notificationType = z.enum(NOTIFICATION_TYPES, { error: 'invalid' });

/** Which events reach which role (the preferences screen lists these). */
export const NOTIFICATION_TYPES_BY_ROLE: Record<AccountRole, readonly NotificationType[]> = {
  admin: ['safety_alert', 'unmatched_result', 'query_opened'],
  doctor: ['safety_alert', 'query_opened'],
  patient: ['kit_order', 'visit_reminder'],
  // A monitor reads the site's answers in the queries list; no event is sent to it yet.
  monitor: [],
  // The data protection officer reads logs; no study event concerns the IOD.
  iod: [],
};

export const LANGUAGES = ['pl', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** `GET /api/notifications` without `user_id`: the signed-in user's, newest first. */
export const notificationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  page: z.coerce.number().int().min(1).default(1),
  /** 1: the unread ones only. */
  unread: z.enum(['0', '1']).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const userNotification = z.object({
  id: z.number().int(),
  type: notificationType,
  /** Ids, dates and times only (never a PESEL or a result): the web app writes the sentence. */
  params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  /** The screen the notification is about, a path inside the web app. */
  link: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type UserNotification = z.infer<typeof userNotification>;

export const notificationList = z.object({
  data: z.array(userNotification),
  total_count: z.number().int(),
  /** How many of all the user's notifications are unread (the bell's number). */
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

export const notificationRead = z.object({
  status: z.literal('success'),
  data: userNotification,
  unread: z.number().int(),
});
export type NotificationRead = z.infer<typeof notificationRead>;

/** `GET/PUT /api/me/notification_preferences` (staff and patients). */
export const notificationPreferences = z.object({
  /** The e-mail kinds this user's role receives, each on or off. */
  email: z.record(z.string(), z.boolean()),
  /** Where e-mails go: `email_address` when set, else the account's own (null: none, in-app only). */
  email_address: z.string().nullable(),
  account_email: z.string().nullable(),
  language: z.enum(LANGUAGES),
  version: z.number().int(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;
export const notificationPreferencesResponse = z.object({ data: notificationPreferences });

export const notificationPreferencesBody = z.object({
  /** The kinds to change; a kind not named keeps its choice. */
  email: z.partialRecord(notificationType, z.boolean({ error: 'invalid' })).optional(),
  /** Empty or null: the account's own address. */
  email_address: text({ max: 254 })
    .nullish()
    .superRefine((value, ctx) => {
      if (!value) return;
      const checked = emailField().safeParse(value);
      if (!checked.success)
        ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'invalid' });
    })
    .transform((value) => (value === undefined ? undefined : value ? value.toLowerCase() : null)),
  language: text()
    .pipe(z.enum(LANGUAGES, { error: 'invalid' }))
    .optional(),
  /** The version read (0 before the first save); a stale one answers 409 conflict. */
  version: z.number({ error: 'invalid_number' }).int().min(0).optional(),
});
export type NotificationPreferencesBody = z.input<typeof notificationPreferencesBody>;
export const notificationPreferencesSaved = notificationPreferencesResponse.extend({
  status: z.literal('success'),
});

const port = z
  .number({ error: 'invalid_number' })
  .int({ error: 'invalid_number' })
  .min(1, { error: 'invalid' })
  .max(65535, { error: 'invalid' });

/**
 * The SMTP server as sent to `POST /api/settings/smtp`: an empty password keeps the stored one.
 * `secure` is TLS from the first byte (port 465); without it the connection is upgraded with
 * STARTTLS whenever the server offers it, and refused by a server that requires it otherwise.
 */
export const smtpValue = z.object({
  host: text({ max: 255, error: 'required' }).min(1, { error: 'required' }),
  port: port.default(587),
  secure: z.boolean({ error: 'invalid' }).default(false),
  user: text({ max: 255 }).default(''),
  password: text({ trim: false }).default(''),
  from: emailField(),
});
export type SmtpValue = z.input<typeof smtpValue>;

/** The SMTP server as read: the password never leaves the server. */
export const smtpView = z.object({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  password: z.literal(''),
  password_set: z.boolean(),
  from: z.string(),
});
export type SmtpView = z.infer<typeof smtpView>;

export const SMTP_DEFAULTS: SmtpView = {
  host: '',
  port: 587,
  secure: false,
  user: '',
  password: '',
  password_set: false,
  from: '',
};

/**
 * `POST /api/settings/smtp` takes `{value, version?}` like every setting, or the value's fields
 * at the top level (`{host, port, secure, user, password, from}`).
 */
export const smtpSettingBody = z.union([
  z.object({
    value: z.record(z.string(), z.unknown()),
    version: z.number({ error: 'invalid_number' }).int().min(0).optional(),
  }),
  z.record(z.string(), z.unknown()),
]);
export const smtpSettingResponse = z.object({
  data: z.object({ value: smtpView, version: z.number().int() }),
});
export type SmtpSettingResponse = z.infer<typeof smtpSettingResponse>;
export const smtpSettingSaved = smtpSettingResponse.extend({ status: z.literal('success') });

/** `POST /api/settings/smtp/test`: to the caller's address unless `to` names another. */
export const smtpTestBody = z.object({ to: emailField().optional() }).default({});
export const SMTP_TEST_FAILURES = [
  'smtp_not_configured',
  'smtp_auth_failed',
  'smtp_unreachable',
  'smtp_tls_failed',
  'smtp_refused',
  'no_email',
] as const;
export type SmtpTestFailure = (typeof SMTP_TEST_FAILURES)[number];
export const smtpTestResponse = z.object({ status: z.literal('success'), to: z.string() });
/** A failed test: `status` names what did not work; `message` is the server's own words. */
export const smtpTestFailure = z.object({
  status: z.enum(SMTP_TEST_FAILURES),
  message: z.string().optional(),
});

/** `GET /api/notifications/outbox?status=failed` (administrators): e-mails that did not go. */
export const outboxQuery = z.object({
  status: z.enum(['pending', 'sending', 'sent', 'failed']).default('failed'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  page: z.coerce.number().int().min(1).default(1),
});
export const outboxEntry = z.object({
  id: z.number().int(),
  type: notificationType,
  recipient: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type OutboxEntry = z.infer<typeof outboxEntry>;
export const outboxList = z.object({ data: z.array(outboxEntry), total_count: z.number().int() });
export type OutboxList = z.infer<typeof outboxList>;
