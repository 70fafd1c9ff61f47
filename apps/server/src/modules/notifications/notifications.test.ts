import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, warsawToday } from '@portal/shared';
import type {
  NotificationList,
  NotificationPreferences,
  SmtpSettingResponse,
} from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import { settings, visits } from '../../db/schema.js';
import { createTestApp, uniqueEmail } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient } from '../../test/patients-fixture.js';
import type { ReadyPatient } from '../../test/patients-fixture.js';
import { enqueueNotification } from './events.js';
import { sendVisitReminders } from './reminders.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let patient: ReadyPatient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  patient = await readyPatient(t, doctor, { email: uniqueEmail('pacjent') });
});
afterAll(() => t?.close());

const as = (who: { session: { token: string } }) => ({ token: who.session.token });
const list = async (who: { session: { token: string } }, query = '') => {
  const res = await t.request('GET', `/api/notifications${query}`, as(who));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationList>();
};

describe('in-app notifications', () => {
  it('a safety alert reaches the patient’s doctor and the administrators, not another unit', async () => {
    await inTransaction(t.db, null, (tx) =>
      enqueueNotification(tx, { type: 'safety_alert', alert_id: 77, patient_id: patient.id }),
    );
    const mine = await list(doctor);
    expect(mine.unread).toBe(1);
    expect(mine.total_count).toBe(1);
    expect(mine.data[0]).toMatchObject({
      type: 'safety_alert',
      params: { alert_id: 77, patient_id: patient.id },
      link: '/alerts',
      read_at: null,
    });
    expect((await list(admin)).unread).toBe(1);
    expect((await list(otherDoctor)).total_count).toBe(0);

    const id = mine.data[0]?.id ?? 0;
    // Another unit's doctor cannot mark it: it is not theirs (404, as if absent).
    const stranger = await t.request('POST', `/api/notifications/${id}/read`, as(otherDoctor));
    expect(stranger.statusCode).toBe(404);
    const read = await t.request('POST', `/api/notifications/${id}/read`, as(doctor));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ status: 'success', unread: 0 });
    expect((await list(doctor)).unread).toBe(0);
    expect((await list(doctor, '?unread=1')).total_count).toBe(0);
    // The administrator's copy is still unread.
    expect((await list(admin)).unread).toBe(1);
  });

  it('a kit decision through the API reaches the patient, who reads it on the same path', async () => {
    const order = await t.request('POST', '/api/probe-sets', {
      ...as(doctor),
      body: {
        patient_id: patient.id,
        amount: 1,
        labels_amount: 1,
        street: 'Polna',
        building: '1',
        postcode: '00-001',
        city: 'Warszawa',
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    const set = order.json<{ probe_set: { id: number; version: number } }>().probe_set;
    const decided = await t.request('PUT', `/api/probe-sets/${set.id}`, {
      ...as(admin),
      body: { status: 1, version: set.version },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const mine = await list(patient);
    expect(mine.data[0]).toMatchObject({
      type: 'kit_order',
      params: { probe_set_id: set.id, decision: 'accepted' },
    });
  });

  it('answers 401 without a session; with user_id the path still lists a patient’s messages', async () => {
    expect((await t.request('GET', '/api/notifications')).statusCode).toBe(401);
    expect((await t.request('POST', '/api/notifications/1/read')).statusCode).toBe(401);
    const messages = await t.request(
      'GET',
      `/api/notifications?user_id=${patient.userId}`,
      as(doctor),
    );
    expect(messages.statusCode).toBe(200);
    expect(messages.json()).toEqual({ data: [] });
    // A patient reads the own notifications, never another patient's messages (403), and another
    // unit's doctor finds no such patient (404).
    expect(
      (await t.request('GET', `/api/notifications?user_id=${patient.userId}`, as(patient)))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.request('GET', `/api/notifications?user_id=${patient.userId}`, as(otherDoctor)))
        .statusCode,
    ).toBe(404);
  });
});

describe('visit reminders', () => {
  it('tell the patient once about tomorrow’s live visit, however often the job runs', async () => {
    const today = warsawToday();
    const tomorrow = addDays(today, 1);
    const [visit] = await t.db
      .insert(visits)
      .values({
        patient_id: patient.id,
        unit_id: doctor.doctor.unit_id,
        date: tomorrow,
        started_at: '10:30',
        ended_at: '11:00',
      })
      .returning({ id: visits.id });
    // Another day's visit, and a cancelled one tomorrow, are not reminded of.
    await t.db.insert(visits).values([
      {
        patient_id: patient.id,
        unit_id: doctor.doctor.unit_id,
        date: addDays(today, 2),
        started_at: '10:30',
        ended_at: '11:00',
      },
      {
        patient_id: patient.id,
        unit_id: doctor.doctor.unit_id,
        date: tomorrow,
        started_at: '12:00',
        ended_at: '12:30',
        cancelled_at: new Date(),
      },
    ]);
    expect(await sendVisitReminders(t.db, today)).toBe(1);
    expect(await sendVisitReminders(t.db, today)).toBe(1);
    const reminders = (await list(patient)).data.filter((n) => n.type === 'visit_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.params).toMatchObject({
      visit_id: visit?.id,
      date: tomorrow,
      time: '10:30',
    });
  });
});

describe('notification preferences', () => {
  it('staff and patients read and change their own; an e-mail switched off queues nothing', async () => {
    expect((await t.request('GET', '/api/me/notification_preferences')).statusCode).toBe(401);
    const read = await t.request('GET', '/api/me/notification_preferences', as(doctor));
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: NotificationPreferences }>().data).toEqual({
      email: { safety_alert: true, query_opened: true },
      email_address: null,
      account_email: doctor.doctor.email,
      language: 'pl',
      version: 0,
    });
    const saved = await t.request('PUT', '/api/me/notification_preferences', {
      ...as(doctor),
      body: { email: { safety_alert: false }, language: 'en', version: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: NotificationPreferences }>().data).toMatchObject({
      email: { safety_alert: false, query_opened: true },
      language: 'en',
      version: 1,
    });
    const stale = await t.request('PUT', '/api/me/notification_preferences', {
      ...as(doctor),
      body: { email: { safety_alert: true }, version: 0 },
    });
    expect(stale.statusCode).toBe(409);
    const bad = await t.request('PUT', '/api/me/notification_preferences', {
      ...as(doctor),
      body: { email_address: 'nie-adres', language: 'de' },
    });
    expect(bad.statusCode).toBe(422);

    const queued = await inTransaction(t.db, null, (tx) =>
      enqueueNotification(tx, { type: 'safety_alert', alert_id: 78, patient_id: patient.id }),
    );
    // The doctor switched it off; the administrator has no address: nothing by e-mail.
    expect(queued).toBe(0);
    expect((await list(doctor)).unread).toBe(1);

    const own = await t.request('GET', '/api/me/notification_preferences', as(patient));
    expect(own.json<{ data: NotificationPreferences }>().data.email).toEqual({
      kit_order: true,
      visit_reminder: true,
    });
  });
});

describe('SMTP settings', () => {
  const value = {
    host: 'smtp.szpital.test',
    port: 587,
    secure: false,
    user: 'portal',
    password: 'Sekret-SMTP-1',
    from: 'portal@szpital.test',
  };

  it('administrators only; the password is sealed and never answered', async () => {
    expect((await t.request('GET', '/api/settings/smtp')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/settings/smtp', as(doctor))).statusCode).toBe(403);
    expect(
      (await t.request('POST', '/api/settings/smtp', { ...as(doctor), body: value })).statusCode,
    ).toBe(403);
    expect(
      (await t.request('POST', '/api/settings/smtp/test', { ...as(patient), body: {} })).statusCode,
    ).toBe(403);
    const notSet = await t.request('POST', '/api/settings/smtp/test', { ...as(admin), body: {} });
    expect(notSet.statusCode).toBe(409);
    expect(notSet.json()).toEqual({ status: 'smtp_not_configured' });

    const saved = await t.request('POST', '/api/settings/smtp', { ...as(admin), body: value });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain('Sekret-SMTP-1');
    const read = await t.request('GET', '/api/settings/smtp', as(admin));
    expect(read.json<SmtpSettingResponse>().data.value).toEqual({
      ...value,
      password: '',
      password_set: true,
    });
    const [row] = await t.db.select().from(settings).where(eqKey('smtp'));
    expect(JSON.stringify(row)).not.toContain('Sekret-SMTP-1');

    // The setting's usual form, an empty password keeping the stored one.
    const again = await t.request('POST', '/api/settings/smtp', {
      ...as(admin),
      body: { value: { ...value, port: 2525, password: '' }, version: 1 },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<SmtpSettingResponse>().data).toMatchObject({
      value: { port: 2525, password_set: true },
      version: 2,
    });
    const stale = await t.request('POST', '/api/settings/smtp', {
      ...as(admin),
      body: { value, version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    const bad = await t.request('POST', '/api/settings/smtp', {
      ...as(admin),
      body: { ...value, port: 70000, from: 'nie' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: object }>().errors).sort()).toEqual([
      'value.from',
      'value.port',
    ]);
  });
});

const eqKey = (key: string) => eq(settings.key, key);
