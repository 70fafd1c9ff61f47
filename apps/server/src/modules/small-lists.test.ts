import { COUNT_CAP } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetListTotals } from '../lib/list-totals.js';
import { createTestApp, unique, uniqueEmail } from '../test/harness.js';
import type { ReadyAdmin, TestApp } from '../test/harness.js';

/** The units, doctors and administrators lists at scale (issue 8, ADR 022). */
let t: TestApp;
let admin: ReadyAdmin;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
});
afterAll(() => t?.close());

interface Page {
  data: { id: number; name?: string }[];
  total: number;
  total_kind: string;
}

async function list(path: string, query: Record<string, string> = {}) {
  const res = await t.request('GET', path, { token: admin.session.token, query });
  expect(res.statusCode, `${path} ${JSON.stringify(query)}: ${res.body}`).toBe(200);
  return res.json<Page>();
}

const LISTS = ['/api/units', '/api/doctors', '/api/admins'] as const;

describe('list totals', () => {
  it('grow at once after a write through the API, though they are remembered', async () => {
    const units = await list('/api/units');
    expect(units.total_kind).toBe('exact');
    expect((await list('/api/units')).total).toBe(units.total);
    const post = (path: string, body: Record<string, unknown>) =>
      t.request('POST', path, { token: admin.session.token, body });
    const added = await post('/api/units', {
      name: unique('Poradnia'),
      street: 'ul. Banacha',
      building_nr: '1a',
      postcode: '02-097',
      city: 'Warszawa',
    });
    expect(added.statusCode).toBe(200);
    const unit = added.json<{ data: { id: number } }>().data;
    expect((await list('/api/units')).total).toBe(units.total + 1);

    const doctors = await list('/api/doctors');
    const created = await post('/api/doctors', {
      firstname: 'Anna',
      surname: 'Łęcka',
      email: uniqueEmail(),
      phone_number: '501502503',
      unit_id: unit.id,
    });
    expect(created.statusCode).toBe(200);
    expect((await list('/api/doctors')).total).toBe(doctors.total + 1);

    const admins = await list('/api/admins');
    expect((await post('/api/admins', { login: unique('admin') })).statusCode).toBe(200);
    expect((await list('/api/admins')).total).toBe(admins.total + 1);
  });

  it('count a search up to the cap, then answer "at least"; the whole table exactly', async () => {
    const city = unique('Miasto');
    await t.db.execute(sql`
      insert into units (name, street, building_nr, postcode, city)
      select 'Poradnia ' || g, 'ul. Długa', g::text, '00-001', ${city}
      from generate_series(1, ${COUNT_CAP + 3}) g`);
    // Written around the API, as another node would: its totals are forgotten only after the TTL.
    forgetListTotals(t.db);
    const found = await list('/api/units', { search: city, limit: '5' });
    expect(found).toMatchObject({ total: COUNT_CAP, total_kind: 'at_least' });
    expect(found.data).toHaveLength(5);
    const all = await list('/api/units');
    expect(all.total_kind).toBe('exact');
    expect(all.total).toBeGreaterThan(COUNT_CAP + 3);
  });
});

describe('deferred joins', () => {
  it('page doctors in the same order as one long page, for every sort', async () => {
    const units = [await t.unit({ name: unique('A') }), await t.unit({ name: unique('B') })];
    for (let i = 0; i < 7; i++) {
      await t.doctor(units[i % 2]!.id, { surname: i % 3 === 0 ? 'Nowak' : `Zieliński${i}` });
    }
    for (const order_by of ['id', 'surname', 'email', 'unit', 'phone_number']) {
      for (const order_direction of ['asc', 'desc']) {
        const query = { order_by, order_direction, search: '' };
        const whole = await list('/api/doctors', { ...query, limit: '100' });
        const paged: number[] = [];
        for (let page = 1; paged.length < whole.data.length; page++) {
          const next = await list('/api/doctors', { ...query, limit: '3', page: String(page) });
          expect(next.data.length).toBeGreaterThan(0);
          paged.push(...next.data.map((row) => row.id));
        }
        expect(paged, `${order_by} ${order_direction}`).toEqual(whole.data.map((row) => row.id));
      }
    }
  });
});

describe('bad input', () => {
  it('refuses a 1,000-character search and an unknown sort with 422 on every list', async () => {
    for (const path of LISTS) {
      const refused: Record<string, string>[] = [
        { search: 'a'.repeat(1000) },
        { order_by: 'password_hash' },
      ];
      for (const query of refused) {
        const res = await t.request('GET', path, { token: admin.session.token, query });
        expect(res.statusCode, `${path} ${Object.keys(query)[0]}`).toBe(422);
      }
    }
  });

  it('takes %, _, \\ and a lone Polish letter literally', async () => {
    const tag = unique('Znak');
    const special = await t.unit({ name: `${tag} 100%_\\` });
    const plain = await t.unit({ name: `${tag} 1000x` });
    const polish = await t.unit({ name: `${tag} Łańcut` });
    const ids = async (search: string) =>
      (await list('/api/units', { search, limit: '100' })).data.map((row) => row.id);
    expect(await ids(`${tag} 100%`)).toEqual([special.id]);
    expect(await ids(`${tag} 100%_`)).toEqual([special.id]);
    expect(await ids(`${tag} 100%_\\`)).toEqual([special.id]);
    expect(await ids(`${tag} 100_`)).toEqual([]);
    expect((await ids(`${tag} 100`)).sort()).toEqual([special.id, plain.id].sort());
    // Without diacritics either way: "ł" finds "Łańcut" and "l".
    expect(await ids(`${tag} ł`)).toEqual([polish.id]);
    for (const path of LISTS) {
      for (const search of ['%', '_', '\\', 'ł']) {
        const res = await t.request('GET', path, { token: admin.session.token, query: { search } });
        expect(res.statusCode, `${path} ${search}`).toBe(200);
      }
    }
  });

  it('answers a page past the end empty, with the total', async () => {
    for (const path of LISTS) {
      const first = await list(path);
      const past = await list(path, { page: '100000' });
      expect(past).toEqual({ data: [], total: first.total, total_kind: first.total_kind });
    }
  });
});
