import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Unit } from '@portal/shared';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, TestApp } from '../../test/harness.js';

const REQUIRED = 'To pole musi być wypełnione';
const TOO_LONG = 'Wartość tego pola jest za długa';
const INVALID = 'Niektóre pola są nieprawidłowe';
const NOT_FOUND = { status: 'not_found' };

let t: TestApp;
let admin: ReadyAdmin;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
});
afterAll(async () => {
  await t?.close();
});

const as = () => ({ token: admin.session.token });
const body = (overrides: Record<string, unknown> = {}) => ({
  name: unique('Poradnia Kardiologiczna'),
  street: 'ul. Banacha',
  building_nr: '1a',
  postcode: '02-097',
  city: 'Warszawa',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<Unit> {
  const res = await t.request('POST', '/api/units', { ...as(), body: body(overrides) });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Unit }>().data;
}

async function list(query: Record<string, string>) {
  const res = await t.request('GET', '/api/units', { ...as(), query });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Unit[]; total: number }>();
}

describe('POST /api/units', () => {
  it('creates a unit and answers it with the contract body', async () => {
    const input = body({ name: '  Poradnia Łódź  ' });
    const res = await t.request('POST', '/api/units', { ...as(), body: input });
    expect(res.statusCode).toBe(200);
    const saved = res.json<{ status: string; data: Unit }>();
    expect(saved).toEqual({
      status: 'success',
      data: {
        id: expect.any(Number) as number,
        name: 'Poradnia Łódź',
        street: 'ul. Banacha',
        building_nr: '1a',
        postcode: '02-097',
        city: 'Warszawa',
        deleted_at: null,
        version: 1,
      },
    });
    const get = await t.request('GET', `/api/units/${saved.data.id}`, as());
    expect(get.json()).toEqual(saved.data);
  });

  it('strips unknown fields', async () => {
    const res = await t.request('POST', '/api/units', {
      ...as(),
      body: body({ id: 999_999, deleted_at: '2020-01-01T00:00:00Z', colour: 'red' }),
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Unit & { colour?: string } }>();
    expect(data.id).not.toBe(999_999);
    expect(data.deleted_at).toBeNull();
    expect(data).not.toHaveProperty('colour');
  });

  it('requires every field', async () => {
    const res = await t.request('POST', '/api/units', { ...as(), body: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        name: [REQUIRED],
        street: [REQUIRED],
        building_nr: [REQUIRED],
        postcode: [REQUIRED],
        city: [REQUIRED],
      },
    });
    const blank = await t.request('POST', '/api/units', { ...as(), body: body({ city: '   ' }) });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toEqual({ status: 'validation_error', errors: { city: [REQUIRED] } });
  });

  it('refuses 256 characters and accepts 255', async () => {
    const long = await t.request('POST', '/api/units', {
      ...as(),
      body: body({ name: 'a'.repeat(256) }),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toEqual({ status: 'validation_error', errors: { name: [TOO_LONG] } });
    const max = await create({ name: 'b'.repeat(255) });
    expect(max.name).toHaveLength(255);
  });

  it('answers validation messages in English when asked', async () => {
    const res = await t.request('POST', '/api/units', {
      ...as(),
      body: body({ name: '', street: 'x'.repeat(300) }),
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        name: ['This field is required'],
        street: ['The value of this field is too long'],
      },
    });
  });
});

describe('GET /api/units', () => {
  it('searches, sorts and pages', async () => {
    const tag = unique('Lista');
    const c = await create({ name: `${tag} Ciechanów` });
    const a = await create({ name: `${tag} Augustów` });
    const b = await create({ name: `${tag} Białystok` });

    const page1 = await list({ search: tag, order_by: 'name', order_direction: 'asc', limit: '2' });
    expect(page1).toEqual({ data: [a, b], total: 3, total_kind: 'exact' });
    const page2 = await list({
      search: tag,
      order_by: 'name',
      order_direction: 'asc',
      limit: '2',
      page: '2',
    });
    expect(page2).toEqual({ data: [c], total: 3, total_kind: 'exact' });
    const desc = await list({ search: tag, order_by: 'name', order_direction: 'DESC' });
    expect(desc.data.map((u) => u.id)).toEqual([c.id, b.id, a.id]);
    // Default order: newest first.
    const byDefault = await list({ search: tag });
    expect(byDefault.data.map((u) => u.id)).toEqual([b.id, a.id, c.id]);
    const beyond = await list({ search: tag, limit: '2', page: '3' });
    expect(beyond).toEqual({ data: [], total: 3, total_kind: 'exact' });
  });

  it('searches without case over name, street, city and postcode', async () => {
    const tag = unique('Szukaj');
    const unit = await create({ name: `${tag} Szpital`, city: 'Zielona Góra', postcode: '65-046' });
    expect((await list({ search: tag.toUpperCase() })).data).toEqual([unit]);
    const byCity = await list({ search: 'zielona gó' });
    expect(byCity.data.map((u) => u.id)).toContain(unit.id);
    const byPostcode = await list({ search: '65-046' });
    expect(byPostcode.data.map((u) => u.id)).toContain(unit.id);
  });

  it('ignores Polish diacritics as people type: lodz finds Łódź, and the other way round', async () => {
    const tag = unique('Litery');
    const unit = await create({ name: `${tag} Szpital Wojewódzki`, city: 'Łódź' });
    expect((await list({ search: `${tag} szpital wojewodzki` })).data).toEqual([unit]);
    const byCity = await list({ search: 'lodz', limit: '100' });
    expect(byCity.data.map((u) => u.id)).toContain(unit.id);
    const plain = await create({ name: `${tag} Gorzow`, city: 'Gorzow' });
    expect((await list({ search: `${tag} gorzów` })).data).toEqual([plain]);
  });

  it('treats % and _ in the search as plain characters', async () => {
    const tag = unique('Znaki');
    const percent = await create({ name: `${tag} 100%` });
    await create({ name: `${tag} 1000` });
    const underscore = await create({ name: `${tag} a_b` });
    await create({ name: `${tag} axb` });
    expect((await list({ search: `${tag} 100%` })).data).toEqual([percent]);
    expect((await list({ search: `${tag} a_b` })).data).toEqual([underscore]);
    expect((await list({ search: `${tag} %` })).total).toBe(0);
  });

  it('accepts a limit of 100 and refuses 101, page 0 and an unknown order_by', async () => {
    const ok = await t.request('GET', '/api/units', { ...as(), query: { limit: '100' } });
    expect(ok.statusCode).toBe(200);
    const refused: Record<string, string>[] = [
      { limit: '101' },
      { limit: '0' },
      { page: '0' },
      { order_by: 'password_hash' },
      { order_by: 'name; drop table units' },
      { order_direction: 'sideways' },
    ];
    for (const query of refused) {
      const res = await t.request('GET', '/api/units', { ...as(), query });
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { [Object.keys(query)[0]!]: [INVALID] },
      });
    }
  });
});

describe('GET /api/units/:id', () => {
  it('answers 404 for a missing id and for one that is not plain digits (ADR 037)', async () => {
    const missing = await t.request('GET', '/api/units/999999', as());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(NOT_FOUND);
    for (const id of ['abc', '1.0', '+1', '0']) {
      const malformed = await t.request('GET', `/api/units/${id}`, as());
      expect(malformed.statusCode, id).toBe(404);
      expect(malformed.json()).toEqual(NOT_FOUND);
    }
  });
});

describe('PUT /api/units/:id', () => {
  it('updates every field', async () => {
    const unit = await create();
    const next = body({ name: 'Nowa nazwa', city: 'Kraków', postcode: '30-001' });
    const res = await t.request('PUT', `/api/units/${unit.id}`, {
      ...as(),
      body: { ...next, version: unit.version },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      data: { ...next, id: unit.id, deleted_at: null, version: 2 },
    });
    const get = await t.request('GET', `/api/units/${unit.id}`, as());
    expect(get.json()).toEqual({ ...next, id: unit.id, deleted_at: null, version: 2 });
  });

  it('answers 409 conflict to a stale or repeated version and keeps the first save', async () => {
    const unit = await create();
    expect(unit.version).toBe(1);
    const first = await t.request('PUT', `/api/units/${unit.id}`, {
      ...as(),
      body: body({ name: 'Pierwszy zapis', version: 1 }),
    });
    expect(first.statusCode).toBe(200);
    const stale = await t.request('PUT', `/api/units/${unit.id}`, {
      ...as(),
      body: body({ name: 'Drugi zapis', version: 1 }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const get = await t.request('GET', `/api/units/${unit.id}`, as());
    expect(get.json()).toMatchObject({ name: 'Pierwszy zapis', version: 2 });
    const fresh = await t.request('PUT', `/api/units/${unit.id}`, {
      ...as(),
      body: body({ name: 'Drugi zapis', version: 2 }),
    });
    expect(fresh.json()).toMatchObject({ data: { name: 'Drugi zapis', version: 3 } });
  });

  it('requires the version', async () => {
    const unit = await create();
    const res = await t.request('PUT', `/api/units/${unit.id}`, { ...as(), body: body() });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ status: 'validation_error', errors: { version: [REQUIRED] } });
  });

  it('answers 404 for a missing unit and 422 for invalid data', async () => {
    const missing = await t.request('PUT', '/api/units/999999', {
      ...as(),
      body: body({ version: 1 }),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(NOT_FOUND);
    const unit = await create();
    const invalid = await t.request('PUT', `/api/units/${unit.id}`, {
      ...as(),
      body: body({ street: '', version: 1 }),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({ status: 'validation_error', errors: { street: [REQUIRED] } });
  });
});

describe('DELETE /api/units/:id and PUT /api/units/restore/:id', () => {
  it('soft-deletes: still listed with deleted_at, not in /all, and restorable', async () => {
    const tag = unique('Usun');
    const unit = await create({ name: `${tag} Poradnia` });

    const del = await t.request('DELETE', `/api/units/${unit.id}`, as());
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ status: 'success' });

    const listed = await list({ search: tag });
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toEqual({ ...unit, deleted_at: expect.any(String) as string });
    expect(Number.isNaN(Date.parse(listed.data[0]!.deleted_at!))).toBe(false);
    const get = await t.request('GET', `/api/units/${unit.id}`, as());
    expect(get.json<Unit>().deleted_at).toBe(listed.data[0]!.deleted_at);

    const all = await t.request('GET', '/api/units/all', as());
    expect(all.statusCode).toBe(200);
    expect(all.json<{ data: Unit[] }>().data.map((u) => u.id)).not.toContain(unit.id);

    const again = await t.request('DELETE', `/api/units/${unit.id}`, as());
    expect(again.statusCode).toBe(200);

    const restore = await t.request('PUT', `/api/units/restore/${unit.id}`, as());
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toEqual({ status: 'success' });
    expect((await list({ search: tag })).data).toEqual([unit]);
    const allAfter = await t.request('GET', '/api/units/all', as());
    expect(allAfter.json<{ data: Unit[] }>().data).toContainEqual(unit);
  });

  it('answers 404 for missing units', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/units/999999'],
      ['PUT', '/api/units/restore/999999'],
    ] as const) {
      const res = await t.request(method, url, as());
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('lists /all by name', async () => {
    const tag = unique('Wszystkie');
    const b = await create({ name: `${tag} B` });
    const c = await create({ name: `${tag} C` });
    const a = await create({ name: `${tag} A` });
    const res = await t.request('GET', '/api/units/all', as());
    expect(res.statusCode).toBe(200);
    const ours = res.json<{ data: Unit[] }>().data.filter((u) => u.name.startsWith(tag));
    expect(ours).toEqual([a, b, c]);
  });

  it('with reachable=1 answers the units within reach: a monitor’s, a doctor’s own, all for an administrator', async () => {
    const [a, b, c] = [await create(), await create(), await create()];
    const monitor = await t.readyMonitor([a.id, b.id]);
    const doctor = await t.readyDoctor(c.id);
    const ids = async (token: string, query: Record<string, string>) => {
      const res = await t.request('GET', '/api/units/all', { token, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Unit[] }>().data.map((u) => u.id);
    };
    const reachable = { reachable: '1' };
    expect((await ids(monitor.session.token, reachable)).sort()).toEqual([a.id, b.id].sort());
    expect(await ids(doctor.session.token, reachable)).toEqual([c.id]);
    expect(await ids(admin.session.token, reachable)).toEqual(
      expect.arrayContaining([a.id, b.id, c.id]),
    );
    // Without the filter, every unit that is not deleted, as before.
    expect(await ids(monitor.session.token, {})).toEqual(
      expect.arrayContaining([a.id, b.id, c.id]),
    );
    const bad = await t.request('GET', '/api/units/all', {
      token: monitor.session.token,
      query: { reachable: 'yes' },
    });
    expect(bad.statusCode).toBe(422);
  });
});
