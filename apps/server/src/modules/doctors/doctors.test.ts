import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_LENGTH, PASSWORD_ALPHABET } from '@portal/shared';
import type { Doctor, Unit } from '@portal/shared';
import { PUBLIC_URL, createTestApp, unique, uniqueEmail } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';

const REQUIRED = 'To pole musi być wypełnione';
const TOO_LONG = 'Wartość tego pola jest za długa';
const INVALID_EMAIL = 'To pole musi być poprawnym adresem e-mail';
const INVALID_PHONE = 'Numer telefonu musi składać się z 9 cyfr';
const INVALID = 'Niektóre pola są nieprawidłowe';
const NOT_FOUND = { status: 'not_found' };
const INVALID_CREDENTIALS = { status: 'invalid_credentials', error: 'Invalid credentials' };

let t: TestApp;
let admin: ReadyAdmin;
let unit: Unit;
let otherUnit: Unit;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unit = await t.unit({ name: unique('Poradnia A') });
  otherUnit = await t.unit({ name: unique('Poradnia B') });
});
afterAll(async () => {
  await t?.close();
});

const as = () => ({ token: admin.session.token });
const unitOf = (u: Unit) => ({
  name: u.name,
  street: u.street,
  building_nr: u.building_nr,
  postcode: u.postcode,
  city: u.city,
});
const body = (overrides: Record<string, unknown> = {}) => ({
  firstname: 'Maria',
  surname: unique('Wiśniewska'),
  email: uniqueEmail(),
  phone_number: '+48 600 100 200',
  unit_id: unit.id,
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<Doctor> {
  const res = await t.request('POST', '/api/doctors', { ...as(), body: body(overrides) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Doctor }>().data;
}

async function list(query: Record<string, string>) {
  const res = await t.request('GET', '/api/doctors', { ...as(), query });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Doctor[]; total: number }>();
}

async function printDetails(id: number) {
  const res = await t.request('GET', `/api/doctors/print_login_detail/${id}`, as());
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<{ login: string; password: string; login_url: string }>();
}

describe('POST /api/doctors', () => {
  it('creates a doctor with the unit, normalising the phone and the e-mail', async () => {
    const email = `${unique('Jan.Nowak')}@Szpital.TEST`;
    const res = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ firstname: ' Jan ', surname: 'Nowak', email, phone_number: '+48 600 100 200' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('password');
    expect(res.json()).toEqual({
      status: 'success',
      data: {
        id: expect.any(Number) as number,
        firstname: 'Jan',
        surname: 'Nowak',
        email: email.toLowerCase(),
        phone_number: '600100200',
        unit_id: unit.id,
        unit: unitOf(unit),
        deleted_at: null,
        version: 1,
      },
    });
  });

  it('accepts the phone as 9 digits, with dashes or with 0048', async () => {
    for (const phone of ['600100200', '600-100-200', '0048600100200']) {
      expect((await create({ phone_number: phone })).phone_number).toBe('600100200');
    }
  });

  it('refuses an invalid phone', async () => {
    for (const phone of ['12345', '+48 600 100 2001', '60010020a', '+49 600 100 200']) {
      const res = await t.request('POST', '/api/doctors', {
        ...as(),
        body: body({ phone_number: phone }),
      });
      expect(res.statusCode, phone).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { phone_number: [INVALID_PHONE] },
      });
    }
  });

  it('requires every field', async () => {
    const res = await t.request('POST', '/api/doctors', { ...as(), body: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        firstname: [REQUIRED],
        surname: [REQUIRED],
        email: [REQUIRED],
        phone_number: [REQUIRED],
        unit_id: [REQUIRED],
      },
    });
    const blanks = await t.request('POST', '/api/doctors', {
      ...as(),
      body: { firstname: '', surname: ' ', email: '', phone_number: '', unit_id: '' },
    });
    expect(blanks.statusCode).toBe(422);
    expect(blanks.json()).toEqual({
      status: 'validation_error',
      errors: {
        firstname: [REQUIRED],
        surname: [REQUIRED],
        email: [REQUIRED],
        phone_number: [REQUIRED],
        unit_id: [REQUIRED],
      },
    });
  });

  it('refuses an invalid e-mail and values longer than 255 characters', async () => {
    const res = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ email: 'not-an-email', surname: 'x'.repeat(256) }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { email: [INVALID_EMAIL], surname: [TOO_LONG] },
    });
  });

  it('refuses a missing or deleted unit', async () => {
    const missing = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ unit_id: 999_999 }),
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ status: 'validation_error', errors: { unit_id: [REQUIRED] } });

    const gone = await t.unit();
    expect((await t.request('DELETE', `/api/units/${gone.id}`, as())).statusCode).toBe(200);
    const deleted = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ unit_id: gone.id }),
    });
    expect(deleted.statusCode).toBe(422);
    expect(deleted.json()).toEqual({ status: 'validation_error', errors: { unit_id: [REQUIRED] } });
  });

  it('refuses a duplicate e-mail in any letter case with 409 exist_doctor', async () => {
    const first = await create();
    const res = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ email: first.email.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'exist_doctor' });
  });

  it('strips unknown fields', async () => {
    const res = await t.request('POST', '/api/doctors', {
      ...as(),
      body: body({ password: 'Moje-Haslo-1', role: 'admin', user_id: 1, id: 999_999 }),
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Doctor }>();
    expect(data.id).not.toBe(999_999);
    expect(Object.keys(data).sort()).toEqual(
      [
        'deleted_at',
        'email',
        'firstname',
        'id',
        'phone_number',
        'surname',
        'unit',
        'unit_id',
        'version',
      ].sort(),
    );
    // The password in the body was not taken: the account still needs printed details.
    const login = await t.request('POST', '/api/auth/login/doctor', {
      body: { login: data.email, password: 'Moje-Haslo-1' },
      remoteAddress: '10.9.0.1',
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('GET /api/doctors', () => {
  it('searches, filters by unit, sorts and pages', async () => {
    const tag = unique('Lista');
    const c = await create({ surname: `${tag} Cieślak` });
    const a = await create({ surname: `${tag} Adamczyk`, unit_id: otherUnit.id });
    const b = await create({ surname: `${tag} Bąk` });

    expect(
      await list({ search: tag, order_by: 'surname', order_direction: 'asc', limit: '2' }),
    ).toEqual({ data: [a, b], total: 3, total_kind: 'exact' });
    expect(
      await list({
        search: tag,
        order_by: 'surname',
        order_direction: 'asc',
        limit: '2',
        page: '2',
      }),
    ).toEqual({ data: [c], total: 3, total_kind: 'exact' });
    expect(await list({ search: tag, unit_id: String(otherUnit.id) })).toEqual({
      data: [a],
      total: 1,
      total_kind: 'exact',
    });
    const byUnit = await list({ search: tag, order_by: 'unit', order_direction: 'desc' });
    // Unit B sorts after unit A; within a unit the id breaks ties.
    expect(byUnit.data.map((d) => d.id)).toEqual([a.id, b.id, c.id]);
    expect(a.unit).toEqual(unitOf(otherUnit));
  });

  it('searches by e-mail, phone and unit name, without case', async () => {
    const tag = unique('Szukaj');
    const doctor = await create({ surname: tag, phone_number: '+48 511 222 333' });
    expect((await list({ search: doctor.email.toUpperCase() })).data).toEqual([doctor]);
    expect((await list({ search: '511222333' })).data).toEqual([doctor]);
    const byUnit = await list({ search: otherUnit.name, limit: '100' });
    expect(byUnit.data.every((d) => d.unit_id === otherUnit.id)).toBe(true);
    expect(byUnit.total).toBeGreaterThan(0);
  });

  it('finds Górski when gorski is typed (diacritics ignored)', async () => {
    const tag = unique('Górski');
    const doctor = await create({ surname: tag, firstname: 'Łukasz' });
    const typed = tag.replace('ó', 'o').toLowerCase();
    expect((await list({ search: typed })).data).toEqual([doctor]);
    expect((await list({ search: 'lukasz', limit: '100' })).data.map((d) => d.id)).toContain(
      doctor.id,
    );
  });

  it('refuses a limit above 100 and an unknown order_by', async () => {
    const refused: Record<string, string>[] = [
      { limit: '101' },
      { order_by: 'password' },
      { unit_id: 'abc' },
    ];
    for (const query of refused) {
      const res = await t.request('GET', '/api/doctors', { ...as(), query });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { [Object.keys(query)[0]!]: [INVALID] },
      });
    }
  });
});

describe('GET /api/doctors/all and /api/doctors/:id', () => {
  it('lists the doctors that are not deleted, optionally of one unit', async () => {
    const kept = await create({ unit_id: otherUnit.id });
    const gone = await create({ unit_id: otherUnit.id });
    expect((await t.request('DELETE', `/api/doctors/${gone.id}`, as())).statusCode).toBe(200);
    const res = await t.request('GET', '/api/doctors/all', {
      ...as(),
      query: { unit_id: String(otherUnit.id) },
    });
    expect(res.statusCode).toBe(200);
    const ids = res.json<{ data: Doctor[] }>().data.map((d) => d.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(gone.id);
    const ofUnitA = await t.request('GET', '/api/doctors/all', {
      ...as(),
      query: { unit_id: String(unit.id) },
    });
    expect(ofUnitA.json<{ data: Doctor[] }>().data.every((d) => d.unit_id === unit.id)).toBe(true);
  });

  it('answers one doctor, or 404', async () => {
    const doctor = await create();
    const res = await t.request('GET', `/api/doctors/${doctor.id}`, as());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(doctor);
    const missing = await t.request('GET', '/api/doctors/999999', as());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(NOT_FOUND);
  });
});

describe('PUT /api/doctors/:id', () => {
  it('updates the doctor; a new e-mail becomes the login', async () => {
    const ready = await t.readyDoctor(unit.id);
    const email = uniqueEmail('zmieniony');
    const res = await t.request('PUT', `/api/doctors/${ready.doctor.id}`, {
      ...as(),
      body: body({
        firstname: 'Piotr',
        surname: 'Zieliński',
        email,
        unit_id: otherUnit.id,
        version: ready.doctor.version,
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      data: {
        id: ready.doctor.id,
        firstname: 'Piotr',
        surname: 'Zieliński',
        email,
        phone_number: '600100200',
        unit_id: otherUnit.id,
        unit: unitOf(otherUnit),
        deleted_at: null,
        version: 2,
      },
    });
    const session = await t.login('doctor', email, ready.password);
    expect(session.user).toMatchObject({
      login: email,
      unit_id: otherUnit.id,
      surname: 'Zieliński',
    });
    const old = await t.request('POST', '/api/auth/login/doctor', {
      body: { login: ready.login, password: ready.password },
      remoteAddress: '10.9.0.2',
    });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(INVALID_CREDENTIALS);
  });

  it("refuses another doctor's e-mail with 409, and answers 404 and 422", async () => {
    const first = await create();
    const second = await create();
    const taken = await t.request('PUT', `/api/doctors/${second.id}`, {
      ...as(),
      body: body({ email: first.email.toUpperCase(), version: second.version }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ status: 'exist_doctor' });

    const missing = await t.request('PUT', '/api/doctors/999999', {
      ...as(),
      body: body({ version: 1 }),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(NOT_FOUND);

    const invalid = await t.request('PUT', `/api/doctors/${second.id}`, {
      ...as(),
      body: body({ phone_number: '123', version: second.version }),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({
      status: 'validation_error',
      errors: { phone_number: [INVALID_PHONE] },
    });
    const unchanged = await t.request('GET', `/api/doctors/${second.id}`, as());
    expect(unchanged.json()).toEqual(second);

    const stale = await t.request('PUT', `/api/doctors/${second.id}`, {
      ...as(),
      body: body({ email: second.email, version: second.version + 1 }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const saved = await t.request('PUT', `/api/doctors/${second.id}`, {
      ...as(),
      body: body({ email: second.email, firstname: 'Teresa', version: second.version }),
    });
    expect(saved.json()).toMatchObject({ data: { firstname: 'Teresa', version: 2 } });
    const again = await t.request('PUT', `/api/doctors/${second.id}`, {
      ...as(),
      body: body({ email: second.email, firstname: 'Tamara', version: second.version }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'conflict' });
  });
});

describe('DELETE /api/doctors/:id and PUT /api/doctors/restore/:id', () => {
  it('soft-deletes, ends the sessions, and restores', async () => {
    const ready = await t.readyDoctor(unit.id);
    const before = await t.request('GET', '/api/units', { token: ready.session.token });
    expect(before.statusCode).toBe(200);

    const del = await t.request('DELETE', `/api/doctors/${ready.doctor.id}`, as());
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ status: 'success' });

    const after = await t.request('GET', '/api/units', { token: ready.session.token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ status: 'unauthorized', error: 'Unauthorized' });

    const listed = await list({ search: ready.doctor.email });
    expect(listed.total).toBe(1);
    expect(listed.data[0]?.deleted_at).toEqual(expect.any(String));
    const get = await t.request('GET', `/api/doctors/${ready.doctor.id}`, as());
    expect(get.json<Doctor>().deleted_at).toBe(listed.data[0]?.deleted_at);
    const printed = await t.request(
      'GET',
      `/api/doctors/print_login_detail/${ready.doctor.id}`,
      as(),
    );
    expect(printed.statusCode).toBe(404);

    const restore = await t.request('PUT', `/api/doctors/restore/${ready.doctor.id}`, as());
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toEqual({ status: 'success' });
    expect((await list({ search: ready.doctor.email })).data[0]?.deleted_at).toBeNull();
    const session = await t.login('doctor', ready.login, ready.password);
    const units = await t.request('GET', '/api/units', { token: session.token });
    expect(units.statusCode).toBe(200);
  });

  it('answers 404 for missing doctors', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/doctors/999999'],
      ['PUT', '/api/doctors/restore/999999'],
      ['GET', '/api/doctors/print_login_detail/999999'],
    ] as const) {
      const res = await t.request(method, url, as());
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });
});

describe('GET /api/doctors/print_login_detail/:id', () => {
  it('sets a new generated password that must be changed; the old one stops working', async () => {
    const ready = await t.readyDoctor(unit.id);
    const details = await printDetails(ready.doctor.id);
    expect(Object.keys(details).sort()).toEqual(['login', 'login_url', 'password']);
    expect(details.login_url).toBe(`${PUBLIC_URL}/login`);
    expect(details.login).toBe(ready.doctor.email);
    expect(details.password).toHaveLength(GENERATED_PASSWORD_LENGTH);
    expect([...details.password].every((c) => PASSWORD_ALPHABET.includes(c))).toBe(true);

    // Earlier sessions end with the reset.
    const oldSession = await t.request('GET', '/api/units', { token: ready.session.token });
    expect(oldSession.statusCode).toBe(401);

    const old = await t.request('POST', '/api/auth/login/doctor', {
      body: { login: ready.login, password: ready.password },
      remoteAddress: '10.9.0.3',
    });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(INVALID_CREDENTIALS);

    const session = await t.login('doctor', details.login, details.password);
    expect(session.user.changed_password_at).toBeNull();
    const units = await t.request('GET', '/api/units', { token: session.token });
    expect(units.statusCode).toBe(403);
    expect(units.json()).toEqual({ status: 'password_change_required' });

    const again = await printDetails(ready.doctor.id);
    expect(again.password).not.toBe(details.password);
  });
});
