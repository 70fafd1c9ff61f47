import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxList } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import { notificationsOutbox } from '../../db/schema.js';
import { SecretBox } from '../../lib/secrets.js';
import { PUBLIC_URL, createTestApp, uniqueEmail } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { enqueueNotification } from './events.js';
import type { NotificationEvent } from './events.js';
import { deliverDue } from './outbox.js';
import type { SmtpTransport } from './smtp.js';
import { selfSignedCertificate, testSmtp } from './smtp-fixture.js';

/*
 * E-mail delivery against a real SMTP server on the loopback (ports 3260-3263): delivery,
 * STARTTLS, a login that does not work, the server down and back, a bouncing address, and the
 * same event told twice. Delivery is driven by calling deliverDue, what the queue's job runs.
 */

const key = randomBytes(32);
const secrets = new SecretBox(key);
let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let patient: { id: number; userId: number };
let pesel: string;
const adminEmail = uniqueEmail('koordynator');
const smtp = testSmtp(3260);

const deliver = (extra: Partial<Parameters<typeof deliverDue>[0]> = {}) =>
  deliverDue({ db: t.db, secrets, publicUrl: PUBLIC_URL, retryBaseMs: 100, ...extra });
const enqueue = (event: NotificationEvent) =>
  inTransaction(t.db, null, (tx) => enqueueNotification(tx, event));
let serial = 1000;
const alertEvent = (): NotificationEvent => ({
  type: 'safety_alert',
  alert_id: (serial += 1),
  patient_id: patient.id,
});

async function configure(value: Record<string, unknown>) {
  const res = await t.request('POST', '/api/settings/smtp', {
    token: admin.session.token,
    body: {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: '',
      password: '',
      from: 'portal@badanie.test',
      ...value,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function outboxRows() {
  return t.db.select().from(notificationsOutbox).orderBy(notificationsOutbox.id);
}

beforeAll(async () => {
  t = await createTestApp({ secretKey: key });
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  pesel = freshPesel();
  patient = await registerPatient(t, doctor, { pesel, email: uniqueEmail('pacjent') });
  const res = await t.request('PUT', '/api/me/notification_preferences', {
    token: admin.session.token,
    body: { email_address: adminEmail },
  });
  expect(res.statusCode, res.body).toBe(200);
  await smtp.start();
  await configure({});
});
afterAll(async () => {
  await smtp.stop();
  await t?.close();
});
beforeEach(async () => {
  // Each test starts from an empty outbox and mailbox.
  await deliver();
  smtp.received.length = 0;
});

describe('e-mail delivery', () => {
  it('delivers a safety alert to the doctor and the administrator, without PESEL or results, with a link', async () => {
    const queued = await enqueue(alertEvent());
    expect(queued).toBe(2);
    const report = await deliver();
    expect(report).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(
      [doctor.doctor.email, adminEmail].sort(),
    );
    for (const mail of smtp.received) {
      expect(mail.raw).not.toContain(pesel);
      expect(mail.raw).not.toContain('Tadeusz');
      expect(mail.raw).toContain(`${PUBLIC_URL}/alerts`);
      expect(mail.raw).toMatch(/Subject: =\?UTF-8\?|Subject: Nowy alert/);
      expect(mail.raw).toMatch(/Message-ID: <[0-9a-f]{32}\.notification@study-portal>/i);
    }
    const rows = await outboxRows();
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(2);
  });

  it('sends the same event once, however often it is told', async () => {
    const event = alertEvent();
    expect(await enqueue(event)).toBe(2);
    expect(await enqueue(event)).toBe(0);
    await deliver();
    await deliver();
    expect(smtp.received).toHaveLength(2);
  });

  it('three deliveries at once, and the same event told twice at once, send each e-mail once', async () => {
    const events = Array.from({ length: 6 }, alertEvent);
    // The same event from two transactions at once: the unique key keeps one of each.
    await Promise.all(events.flatMap((event) => [enqueue(event), enqueue(event)]));
    const reports = await Promise.all([deliver(), deliver(), deliver()]);
    expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBe(12);
    expect(smtp.received).toHaveLength(12);
    const ids = smtp.received.map((m) => /Message-ID: (<[^>]+>)/i.exec(m.raw)?.[1]);
    expect(new Set(ids).size).toBe(12);
  });

  it('writes in English for a user who chose it', async () => {
    const res = await t.request('PUT', '/api/me/notification_preferences', {
      token: doctor.session.token,
      body: { language: 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await enqueue(alertEvent());
    await deliver();
    const toDoctor = smtp.received.find((m) => m.to[0] === doctor.doctor.email);
    expect(toDoctor?.raw).toContain('Subject: New safety alert');
    await t.request('PUT', '/api/me/notification_preferences', {
      token: doctor.session.token,
      body: { language: 'pl' },
    });
  });

  it('keeps e-mails while the server is down and delivers them once when it is back', async () => {
    await smtp.stop();
    await enqueue(alertEvent());
    const down = await deliver();
    expect(down).toEqual({ sent: 0, retried: 2, failed: 0 });
    const waiting = await outboxRows();
    const pending = waiting.filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(2);
    expect(pending[0]?.attempts).toBe(1);
    expect(pending[0]?.last_error).toMatch(/^smtp_unreachable/);
    // Not due yet (backoff): nothing is tried again at once.
    expect(await deliver()).toEqual({ sent: 0, retried: 0, failed: 0 });
    await smtp.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await deliver()).toEqual({ sent: 2, retried: 0, failed: 0 });
    await deliver();
    expect(smtp.received).toHaveLength(2);
  });

  it('a crash between sending and marking leaves the claim to run out, then sends the same message again', async () => {
    await enqueue(alertEvent());
    // What a worker that died after claiming leaves behind: `sending`, the claim run out.
    const [row] = await t.db
      .update(notificationsOutbox)
      .set({ status: 'sending', locked_until: new Date(Date.now() - 1000), attempts: 1 })
      .where(eq(notificationsOutbox.status, 'pending'))
      .returning();
    expect(row).toBeDefined();
    await deliver();
    const ids = smtp.received.map((m) => /Message-ID: (<[^>]+>)/i.exec(m.raw)?.[1]);
    expect(ids).toContain(row?.message_id);
  });

  it('a bouncing address is recorded as failed at once and shown to administrators', async () => {
    const bounce = testSmtp(3263, { reject: [doctor.doctor.email] });
    await bounce.start();
    try {
      await configure({ port: 3263 });
      await enqueue(alertEvent());
      const report = await deliver();
      expect(report).toEqual({ sent: 1, retried: 0, failed: 1 });
      const failed = await t.request('GET', '/api/notifications/outbox?status=failed', {
        token: admin.session.token,
      });
      expect(failed.statusCode).toBe(200);
      const list = failed.json<OutboxList>();
      expect(list.data[0]).toMatchObject({ recipient: doctor.doctor.email, status: 'failed' });
      expect(list.data[0]?.last_error).toMatch(/^smtp_refused: .*550/);
      // Failed stays failed: the next run does not try it again.
      expect(await deliver()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(
        (await t.request('GET', '/api/notifications/outbox', { token: doctor.session.token }))
          .statusCode,
      ).toBe(403);
    } finally {
      await bounce.stop();
      await configure({});
    }
  });

  it('uses STARTTLS with the login, and the test message says when the password is wrong', async () => {
    const certificate = await selfSignedCertificate();
    const tls = testSmtp(3262, { user: 'portal', password: 'Sekret-123', tls: certificate });
    await tls.start();
    try {
      await configure({ port: 3262, user: 'portal', password: 'Zle-haslo' });
      // The test message: the server's certificate is not trusted by this process.
      const untrusted = await t.request('POST', '/api/settings/smtp/test', {
        token: admin.session.token,
        body: {},
      });
      expect(untrusted.statusCode).toBe(502);
      expect(untrusted.json<{ status: string }>().status).toBe('smtp_tls_failed');

      // The delivery trusts it, as SMTP_CA_FILE makes the server do.
      const trust = {
        transport: (found: SmtpTransport) => ({ ...found, tls: { ca: certificate.cert } }),
      };
      await enqueue(alertEvent());
      const wrong = await deliver(trust);
      expect(wrong.sent).toBe(0);
      expect(wrong.retried).toBeGreaterThanOrEqual(2);
      expect((await outboxRows()).find((r) => r.status === 'pending')?.last_error).toMatch(
        /^smtp_auth_failed/,
      );

      await configure({ port: 3262, user: 'portal', password: 'Sekret-123' });
      await t.db
        .update(notificationsOutbox)
        .set({ next_attempt_at: new Date() })
        .where(eq(notificationsOutbox.status, 'pending'));
      expect(await deliver(trust)).toEqual({ sent: 2, retried: 0, failed: 0 });
      expect(tls.received).toHaveLength(2);
      expect(tls.received.every((m) => m.secure && m.user === 'portal')).toBe(true);
    } finally {
      await tls.stop();
      await configure({});
    }
  });

  it('the test message reaches the caller, and a wrong password is named', async () => {
    const ok = await t.request('POST', '/api/settings/smtp/test', {
      token: admin.session.token,
      body: {},
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ status: 'success', to: adminEmail });
    expect(smtp.received.at(-1)?.to).toEqual([adminEmail]);

    const locked = testSmtp(3261, { user: 'portal', password: 'Sekret-123' });
    await locked.start();
    try {
      await configure({ port: 3261, user: 'portal', password: 'Zle-haslo' });
      const wrong = await t.request('POST', '/api/settings/smtp/test', {
        token: admin.session.token,
        body: { to: 'ktos@badanie.test' },
      });
      expect(wrong.statusCode).toBe(502);
      expect(wrong.json<{ status: string }>().status).toBe('smtp_auth_failed');
      await configure({ port: 3264 });
      const nobody = await t.request('POST', '/api/settings/smtp/test', {
        token: admin.session.token,
        body: {},
      });
      expect(nobody.statusCode).toBe(502);
      expect(nobody.json<{ status: string }>().status).toBe('smtp_unreachable');
    } finally {
      await locked.stop();
      await configure({});
    }
  });

  it('a kit decision reaches the patient by e-mail; a patient without one only in the app', async () => {
    const withoutEmail = await registerPatient(t, doctor, { pesel: freshPesel() });
    expect(
      await enqueue({
        type: 'kit_order',
        probe_set_id: 1,
        patient_id: withoutEmail.id,
        decision: 'accepted',
      }),
    ).toBe(0);
    expect(
      await enqueue({
        type: 'kit_order',
        probe_set_id: 2,
        patient_id: patient.id,
        decision: 'rejected',
      }),
    ).toBe(1);
    await deliver();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.raw).toContain('odrzucone');
  });
});
