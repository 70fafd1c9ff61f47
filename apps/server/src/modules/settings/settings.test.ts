import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '@portal/shared';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { settings } from '../../db/schema.js';
import { SecretBox } from '../../lib/secrets.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readSynevoCredentials, recordSynevoError } from './service.js';

const secretKey = randomBytes(32);
let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp({ secretKey });
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

const get = (name: string, token = admin.session.token) =>
  t.request('GET', `/api/settings/${name}`, { token });
const post = (name: string, body: unknown, token = admin.session.token) =>
  t.request('POST', `/api/settings/${name}`, { token, body });

interface Setting<T = unknown> {
  data: { value: T; version: number; error?: unknown };
}

describe('reading settings', () => {
  it('answers the defaults while nothing was saved', async () => {
    for (const name of ['probe_config', 'phone', 'visits'] as const) {
      const res = await get(name);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { value: SETTING_DEFAULTS[name], version: 0 } });
    }
    const visits = (await get('visits')).json<Setting<typeof SETTING_DEFAULTS.visits>>().data;
    expect(visits.value).toMatchObject({
      visit_start_hour: 8,
      visit_end_hour: 16,
      meeting_length_minutes: 30,
    });
    // Visit 2 at day 28 ± 3, then every 28 days ± 7 up to visit 10.
    expect(visits.value.schedule[0]).toEqual({ visit: 2, day: 28, window_days: 3 });
    expect(visits.value.schedule[1]).toEqual({ visit: 3, day: 56, window_days: 7 });
    expect(visits.value.schedule.at(-1)).toEqual({ visit: 10, day: 252, window_days: 7 });
    expect((await get('synevo')).json()).toEqual({
      data: {
        value: {
          login: '',
          password: '',
          password_set: false,
          unit_code: '',
          enable_results_import: true,
        },
        version: 0,
      },
    });
  });

  it('answers 404 to an unknown name, also on save', async () => {
    expect((await get('colour')).statusCode).toBe(404);
    expect((await get('colour')).json()).toEqual({ status: 'not_found' });
    expect((await post('colour', { value: 1 })).statusCode).toBe(404);
    // The last error is written by the laboratory connector only.
    expect((await post('synevo_last_error_message', { value: 'x' })).statusCode).toBe(404);
  });

  it('are for administrators: a doctor gets 403', async () => {
    expect((await get('phone', doctor.session.token)).statusCode).toBe(403);
    const res = await post('phone', { value: { courier: '', support: '' } }, doctor.session.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'forbidden' });
  });
});

describe('saving settings', () => {
  it('stores a value checked by its schema and bumps the version', async () => {
    const value = ['project_number', 'unit_id', '0', 'next_probe_number', 'material_type'];
    const saved = await post('probe_config', { value, version: 0 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ status: 'success', data: { value, version: 1 } });
    expect((await get('probe_config')).json()).toEqual({ data: { value, version: 1 } });

    const again = await post('probe_config', { value: ['sex', '1'], version: 1 });
    expect(again.json<Setting>().data.version).toBe(2);
  });

  it('answers 409 conflict to a stale version, and saves without one', async () => {
    const value = { courier: '600100200', support: '600300400' };
    const first = await post('phone', { value, version: 0 });
    expect(first.statusCode).toBe(200);
    // A second administrator who read the setting before the first save.
    const other = { courier: '700100200', support: '700300400' };
    const stale = await post('phone', { value: other, version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const late = await post('phone', { value: other, version: 7 });
    expect(late.statusCode).toBe(409);
    expect((await get('phone')).json<Setting>().data.value).toEqual(value);
    // Phone numbers are stored as their 9 digits.
    const plain = await post('phone', {
      value: { courier: '+48 600 100 200', support: '22 111 22 33' },
    });
    expect(plain.json()).toEqual({
      status: 'success',
      data: { value: { courier: '600100200', support: '221112233' }, version: 2 },
    });
  });

  it('answers 422 with the fields at fault', async () => {
    const probe = await post('probe_config', { value: ['sex', 'colour', 'x'] });
    expect(probe.statusCode).toBe(422);
    expect(probe.json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.1': ['Niektóre pola są nieprawidłowe'],
        'value.2': ['Niektóre pola są nieprawidłowe'],
      },
    });
    expect((await post('probe_config', { value: [] })).json()).toEqual({
      status: 'validation_error',
      errors: { value: ['To pole musi być wypełnione'] },
    });

    const visits = await post('visits', {
      value: {
        ...SETTING_DEFAULTS.visits,
        visit_start_hour: 16,
        visit_end_hour: 8,
        schedule: [
          { visit: 3, day: 56, window_days: 7 },
          { visit: 2, day: 28, window_days: 3 },
        ],
      },
    });
    expect(visits.statusCode).toBe(422);
    expect(visits.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'value.visit_end_hour': ['To pole musi mieć wartość po lub równą czasie rozpoczęcia'],
      'value.schedule.1.visit': ['Niektóre pola są nieprawidłowe'],
      'value.schedule.1.day': ['Niektóre pola są nieprawidłowe'],
    });

    const phone = await t.request('POST', '/api/settings/phone', {
      token: admin.session.token,
      body: { value: { courier: '123', support: '' } },
      headers: { 'accept-language': 'en' },
    });
    expect(phone.json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.courier': ['The phone number must have 9 digits'],
        'value.support': ['This field is required'],
      },
    });
    // Both numbers are required (docs/product-rules.md "Validation").
    expect((await post('phone', { value: { courier: '', support: ' ' } })).json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.courier': ['To pole musi być wypełnione'],
        'value.support': ['To pole musi być wypełnione'],
      },
    });
    expect((await post('phone', { value: {} })).json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.courier': ['To pole musi być wypełnione'],
        'value.support': ['To pole musi być wypełnione'],
      },
    });
    expect((await post('visits', { value: SETTING_DEFAULTS.visits, version: -1 })).statusCode).toBe(
      422,
    );
  });

  it('refuses a meeting length that does not divide the day, and saves nothing', async () => {
    const before = (await get('visits')).json<Setting>();
    // 8–16 is 480 minutes: 45-minute visits would leave 30 minutes no visit can fill.
    const odd = await post('visits', {
      value: { ...SETTING_DEFAULTS.visits, meeting_length_minutes: 45 },
      version: before.data.version,
    });
    expect(odd.statusCode).toBe(422);
    expect(odd.json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.meeting_length_minutes': [
          'Czas pracy w ciągu dnia musi dzielić się bez reszty na wizyty tej długości',
        ],
      },
    });
    const english = await t.request('POST', '/api/settings/visits', {
      token: admin.session.token,
      body: {
        value: { ...SETTING_DEFAULTS.visits, visit_end_hour: 15, meeting_length_minutes: 40 },
      },
      headers: { 'accept-language': 'en' },
    });
    expect(english.statusCode).toBe(422);
    expect(english.json()).toEqual({
      status: 'validation_error',
      errors: {
        'value.meeting_length_minutes': [
          'The working day must divide into whole visits of this length',
        ],
      },
    });
    expect((await get('visits')).json()).toEqual(before);
    const [row] = await t.db.select().from(settings).where(eq(settings.key, 'visits'));
    expect(row?.value ?? null).toEqual(before.data.version === 0 ? null : before.data.value);

    // 7–15 with 40 minutes is 12 visits a day: accepted.
    const even = await post('visits', {
      value: {
        ...SETTING_DEFAULTS.visits,
        visit_start_hour: 7,
        visit_end_hour: 15,
        meeting_length_minutes: 40,
      },
      version: before.data.version,
    });
    expect(even.statusCode).toBe(200);
    expect(even.json<Setting>().data).toMatchObject({
      value: { visit_start_hour: 7, visit_end_hour: 15, meeting_length_minutes: 40 },
      version: before.data.version + 1,
    });
  });

  it('holds the booking horizon: two years by default, 1 to 3650 days (ADR 038)', async () => {
    expect(SETTING_DEFAULTS.visits.booking_horizon_days).toBe(730);
    for (const bad of [0, -5, 3651, 30.5, '30', null]) {
      const res = await post('visits', {
        value: { ...SETTING_DEFAULTS.visits, booking_horizon_days: bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual([
        'value.booking_horizon_days',
      ]);
    }
    const saved = await post('visits', {
      value: { ...SETTING_DEFAULTS.visits, booking_horizon_days: 90 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (await get('visits')).json<Setting<{ booking_horizon_days: number }>>().data.value,
    ).toMatchObject({ booking_horizon_days: 90 });
    // A client that predates the field saves without it: the default applies.
    const older: Record<string, unknown> = { ...SETTING_DEFAULTS.visits };
    delete older.booking_horizon_days;
    expect((await post('visits', { value: older })).statusCode).toBe(200);
    expect(
      (await get('visits')).json<Setting<{ booking_horizon_days: number }>>().data.value
        .booking_horizon_days,
    ).toBe(730);
    // A value stored before the field existed reads with the default merged in.
    await t.db.update(settings).set({ value: older }).where(eq(settings.key, 'visits'));
    expect((await get('visits')).json<Setting>().data.value).toEqual(SETTING_DEFAULTS.visits);
  });
});

describe('the laboratory password', () => {
  it('is required to switch the import on, with login and unit code', async () => {
    const res = await post('synevo', {
      value: { login: '', password: '', unit_code: '', enable_results_import: true },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: object }>().errors).sort()).toEqual([
      'value.login',
      'value.unit_code',
    ]);
    const noPassword = await post('synevo', {
      value: { login: 'l', password: '', unit_code: 'u', enable_results_import: true },
    });
    expect(noPassword.json()).toEqual({
      status: 'validation_error',
      errors: { 'value.password': ['To pole musi być wypełnione'] },
    });
  });

  it('is stored sealed, never sent back, and kept when saved empty', async () => {
    const value = {
      login: 'lab-login',
      password: 'Tajne-Haslo-1',
      unit_code: 'POR-7',
      enable_results_import: true,
    };
    const saved = await post('synevo', { value });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain('Tajne-Haslo-1');
    expect(saved.json<Setting>().data.value).toEqual({
      login: 'lab-login',
      password: '',
      password_set: true,
      unit_code: 'POR-7',
      enable_results_import: true,
    });
    const read = await get('synevo');
    expect(read.body).not.toContain('Tajne-Haslo-1');
    expect(read.json<Setting>().data.value).toMatchObject({ password: '', password_set: true });

    // Neither the value nor the secret column holds the password in clear.
    const [row] = await t.db.select().from(settings).where(eq(settings.key, 'synevo'));
    expect(JSON.stringify(row?.value)).not.toContain('Tajne');
    expect(row?.secret).toMatch(/^v1\./);
    expect(row?.secret).not.toContain('Tajne');
    const box = new SecretBox(secretKey);
    expect(box.decrypt(row?.secret ?? '')).toBe('Tajne-Haslo-1');

    // Saving with an empty password changes the rest and keeps the password.
    const kept = await post('synevo', { value: { ...value, password: '', login: 'nowy-login' } });
    expect(kept.json<Setting>().data.value).toMatchObject({
      login: 'nowy-login',
      password_set: true,
    });
    expect(await readSynevoCredentials(t.db, box)).toEqual({
      login: 'nowy-login',
      password: 'Tajne-Haslo-1',
      unit_code: 'POR-7',
      enabled: true,
    });
  });

  it('cannot be saved without a key (PostgreSQL without PORTAL_SECRET_KEY): 503', async () => {
    // The same database served by an app that has no key.
    const config = loadConfig({ LOG_LEVEL: 'silent' }, null);
    const keyless = await buildApp({ db: t.db, config, logger: false, secretKey: null });
    try {
      const send = (name: string, value: unknown) =>
        keyless.inject({
          method: 'POST',
          url: `/api/settings/${name}`,
          headers: { authorization: `Bearer ${admin.session.token}` },
          payload: { value },
        });
      const res = await send('synevo', {
        login: 'l',
        password: 'p',
        unit_code: 'u',
        enable_results_import: false,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'secret_key_missing' });
      // Everything but a secret still saves.
      expect((await send('phone', { courier: '600100200', support: '600300400' })).statusCode).toBe(
        200,
      );
    } finally {
      await keyless.close();
    }
  });
});

describe('the laboratory connector’s last error', () => {
  it('is null until recorded, then its code, sample, analyte and the ACK text (ADR 032)', async () => {
    expect((await get('synevo_last_error_message')).json()).toEqual({
      data: { value: null, version: 0, error: null },
    });
    await recordSynevoError(t.db, {
      code: 'not_a_number',
      params: { probe_code: 'KAR-01-0001', analyte: 'alt', field: 'OBX-5' },
      detail: 'OBX 1: OBX-5 not a number',
      control_id: 'MSG-1',
    });
    const answer = (await get('synevo_last_error_message')).json<Setting>().data;
    // `value` stays the text it always was; `error` carries the code and what it names.
    expect(answer.value).toBe('OBX 1: OBX-5 not a number');
    const value = answer.error;
    expect(value).toMatchObject({
      code: 'not_a_number',
      params: { probe_code: 'KAR-01-0001', analyte: 'alt', field: 'OBX-5' },
      detail: 'OBX 1: OBX-5 not a number',
      control_id: 'MSG-1',
    });
    expect(Date.parse((value as { at: string }).at)).not.toBeNaN();
    // One stored before codes existed reads as its text alone.
    await t.db
      .update(settings)
      .set({ value: { message: 'Błąd logowania do laboratorium' } })
      .where(eq(settings.key, 'synevo_last_error_message'));
    expect((await get('synevo_last_error_message')).json<Setting>().data.error).toEqual({
      code: null,
      params: {},
      detail: 'Błąd logowania do laboratorium',
      control_id: null,
      at: null,
    });
    await recordSynevoError(t.db, null);
    expect((await get('synevo_last_error_message')).json<Setting>().data.value).toBeNull();
  });
});

describe('GET /api/support', () => {
  it('answers the support number to anyone, and no other setting', async () => {
    // The setting may have been saved above (tests share one database): start from none.
    await t.db.delete(settings).where(eq(settings.key, 'phone'));
    const none = await t.request('GET', '/api/support');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ support: null });

    await post('phone', { value: { courier: '600100200', support: '+48 22 111 22 33' } });
    const set = await t.request('GET', '/api/support');
    expect(set.json()).toEqual({ support: '+48 221 112 233' });
    expect(set.body).not.toContain('600');
  });
});
