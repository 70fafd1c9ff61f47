import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarRule, CalendarRulesCount, Unit } from '@portal/shared';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';

const END_BEFORE_START = 'To pole musi mieć wartość po lub równą czasie rozpoczęcia';
const INVALID_TIME = 'To pole musi być poprawną godziną';
const INVALID_DATE = 'To pole musi być poprawną datą';
const REQUIRED = 'To pole musi być wypełnione';
const NOT_FOUND = { status: 'not_found' };

let t: TestApp;
let admin: ReadyAdmin;
let unit: Unit;
let other: Unit;
let doctor: ReadyDoctor;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unit = await t.unit();
  other = await t.unit();
  doctor = await t.readyDoctor(unit.id);
});
afterAll(async () => {
  await t?.close();
});

const asAdmin = () => ({ token: admin.session.token });
const asDoctor = () => ({ token: doctor.session.token });

const rule = (overrides: Record<string, unknown> = {}) => ({
  unit_id: unit.id,
  date: '2027-03-15', // a Monday
  started_at: '08:00',
  ended_at: '12:00',
  type: 'enabled',
  is_global: false,
  ...overrides,
});

async function create(
  overrides: Record<string, unknown> = {},
  as = asAdmin(),
): Promise<CalendarRule> {
  const res = await t.request('POST', '/api/units/calendar', { ...as, body: rule(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: CalendarRule }>().data;
}

async function dayRules(unitId: number, date: string, as = asAdmin()) {
  const res = await t.request('GET', '/api/units/calendar/get_by_filters', {
    ...as,
    query: { unit_id: String(unitId), date },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: CalendarRule[] }>().data;
}

async function monthCount(unitId: number, year: number, month: number, as = asAdmin()) {
  const res = await t.request('GET', '/api/units/calendar/get_rules_count', {
    ...as,
    query: { unit_id: String(unitId), year: String(year), month: String(month) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CalendarRulesCount>();
}

async function rowCount(): Promise<number> {
  const { rows } = await t.handle.executeSql('select count(*)::int as n from unit_calendar_rules');
  return Number(rows[0]!.n);
}

describe('POST /api/units/calendar', () => {
  it('creates a rule, HH:MM read as HH:MM:SS, and answers 201 with the contract body', async () => {
    const res = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: rule({ date: '2027-03-16', started_at: '07:30', ended_at: '15:45:00' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 'success',
      data: {
        id: expect.any(Number) as number,
        unit_id: unit.id,
        date: '2027-03-16',
        started_at: '07:30:00',
        ended_at: '15:45:00',
        type: 'enabled',
        is_global: false,
        version: 1,
      },
    });
  });

  it('takes is_global as false when left out', async () => {
    const body: Record<string, unknown> = rule({ date: '2027-03-17', type: 'disabled' });
    delete body.is_global;
    const res = await t.request('POST', '/api/units/calendar', { ...asAdmin(), body });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: CalendarRule }>().data.is_global).toBe(false);
  });

  it('allows an end equal to the start', async () => {
    const saved = await create({ date: '2027-03-18', started_at: '10:00', ended_at: '10:00' });
    expect(saved.ended_at).toBe('10:00:00');
  });

  it.each([
    [
      'end before start',
      { started_at: '12:00', ended_at: '08:00' },
      { ended_at: [END_BEFORE_START] },
    ],
    ['25:00', { started_at: '25:00' }, { started_at: [INVALID_TIME] }],
    ['24:00', { ended_at: '24:00' }, { ended_at: [INVALID_TIME] }],
    ['minute 60', { started_at: '08:60' }, { started_at: [INVALID_TIME] }],
    ['seconds', { started_at: '08:00:30' }, { started_at: [INVALID_TIME] }],
    [
      '02:30 on the spring-forward night',
      { date: '2026-03-29', started_at: '02:30', ended_at: '04:00' },
      { started_at: [INVALID_TIME] },
    ],
    ['a time word', { ended_at: 'noon' }, { ended_at: [INVALID_TIME] }],
    ['30 February', { date: '2027-02-30' }, { date: [INVALID_DATE] }],
    ['month 13', { date: '2027-13-01' }, { date: [INVALID_DATE] }],
    ['year 0', { date: '0000-01-01' }, { date: [INVALID_DATE] }],
    ['no date', { date: undefined }, { date: [INVALID_DATE] }],
    ['no start', { started_at: undefined }, { started_at: [REQUIRED] }],
    ['an empty end', { ended_at: '' }, { ended_at: [REQUIRED] }],
    ['another type', { type: 'maybe' }, { type: ['Niektóre pola są nieprawidłowe'] }],
    ['no unit', { unit_id: undefined }, { unit_id: [REQUIRED] }],
  ])('refuses %s with 422 and changes nothing', async (_, overrides, errors) => {
    const before = await rowCount();
    const res = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: rule(overrides),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ status: 'validation_error', errors });
    expect(await rowCount()).toBe(before);
  });

  it('answers the end-before-start message in English on request', async () => {
    const res = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      headers: { 'accept-language': 'en' },
      body: rule({ started_at: '12:00', ended_at: '11:59' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { ended_at: ['This field must be at or after the start time'] },
    });
  });

  it('refuses an exact duplicate with 409 exist_rule, by date and by weekday', async () => {
    await create({ date: '2027-04-01', started_at: '09:00', ended_at: '10:00' });
    const again = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: rule({ date: '2027-04-01', started_at: '09:00', ended_at: '10:00' }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'exist_rule' });
    // Another operation on the same hours is no duplicate (block wins within a level).
    await create({ date: '2027-04-01', started_at: '09:00', ended_at: '10:00', type: 'disabled' });

    // Global rules: two Thursdays are one weekday.
    await create({ date: '2027-04-01', started_at: '13:00', ended_at: '14:00', is_global: true });
    const sameWeekday = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: rule({ date: '2027-04-08', started_at: '13:00', ended_at: '14:00', is_global: true }),
    });
    expect(sameWeekday.statusCode).toBe(409);
    expect(sameWeekday.json()).toEqual({ status: 'exist_rule' });
  });

  it('answers 404 for a unit that does not exist', async () => {
    const res = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: rule({ unit_id: 999_999 }),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });
});

describe('the database', () => {
  it('refuses an end before the start, another type and a missing unit itself', async () => {
    const attempts = [
      `insert into unit_calendar_rules (unit_id, date, started_at, ended_at, type) values (${unit.id}, '2027-05-03', '12:00', '08:00', 'enabled')`,
      `insert into unit_calendar_rules (unit_id, date, started_at, ended_at, type) values (${unit.id}, '2027-05-03', '08:00', '12:00', 'open')`,
      `insert into unit_calendar_rules (unit_id, date, started_at, ended_at, type) values (999999, '2027-05-03', '08:00', '12:00', 'enabled')`,
    ];
    for (const statement of attempts)
      await expect(t.handle.executeSql(statement)).rejects.toThrow();
  });
});

describe('GET /api/units/calendar/get_by_filters', () => {
  it("answers the date's rules and the global rules of its weekday, globals first", async () => {
    const u = await t.unit();
    const monday = '2027-06-07';
    const globalMonday = await create({
      unit_id: u.id,
      date: '2027-05-31', // an earlier Monday
      started_at: '14:00',
      ended_at: '18:00',
      is_global: true,
    });
    const own = await create({ unit_id: u.id, date: monday, type: 'disabled' });
    await create({ unit_id: u.id, date: '2027-06-08' }); // Tuesday: another date
    await create({ unit_id: u.id, date: '2027-06-08', started_at: '07:00', is_global: true });
    await create({ unit_id: other.id, date: monday }); // another unit

    expect(await dayRules(u.id, monday)).toEqual([globalMonday, own]);
    // A later Monday sees the global rule only.
    expect(await dayRules(u.id, '2027-06-14')).toEqual([globalMonday]);
    expect(await dayRules(u.id, '2027-06-13')).toEqual([]); // Sunday
  });

  it.each([
    [{ date: '2027-02-30' }, { date: [INVALID_DATE] }],
    [{ date: 'jutro' }, { date: [INVALID_DATE] }],
    [{ date: undefined }, { date: [REQUIRED] }],
    [{ unit_id: 'x' }, { unit_id: [REQUIRED] }],
  ])('refuses %j with 422', async (overrides, errors) => {
    const query = Object.fromEntries(
      Object.entries({ unit_id: String(unit.id), date: '2027-06-07', ...overrides }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Record<string, string>;
    const res = await t.request('GET', '/api/units/calendar/get_by_filters', {
      ...asAdmin(),
      query,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ status: 'validation_error', errors });
  });
});

describe('GET /api/units/calendar/get_rules_count', () => {
  it('counts the rules of every day of the month and lists the global rules by ISO weekday', async () => {
    const u = await t.unit();
    // Global: Monday unblocks the afternoon, Wednesday is blocked all day.
    const monday = await create({
      unit_id: u.id,
      date: '2026-12-28',
      started_at: '16:00',
      ended_at: '18:00',
      is_global: true,
    });
    const wednesday = await create({
      unit_id: u.id,
      date: '2026-12-30',
      started_at: '00:00',
      ended_at: '23:59',
      type: 'disabled',
      is_global: true,
    });
    // Dates of February 2027: a blocked Friday, a Monday with a break, a Wednesday reopened.
    await create({
      unit_id: u.id,
      date: '2027-02-05',
      started_at: '00:00:00',
      ended_at: '23:59:00',
      type: 'disabled',
    });
    await create({
      unit_id: u.id,
      date: '2027-02-08',
      started_at: '11:00',
      ended_at: '12:00',
      type: 'disabled',
    });
    await create({ unit_id: u.id, date: '2027-02-10', started_at: '09:00', ended_at: '11:00' });
    await create({ unit_id: u.id, date: '2027-03-01' }); // another month

    const { data, global_rules } = await monthCount(u.id, 2027, 2);
    expect(global_rules).toEqual({
      '1': [monday],
      '2': [],
      '3': [wednesday],
      '4': [],
      '5': [],
      '6': [],
      '7': [],
    });
    const byDate = Object.fromEntries(data.map((d) => [d.date, d]));
    // Four Mondays and four Wednesdays in February 2027, and the blocked Friday.
    expect(data.map((d) => d.date)).toEqual([
      '2027-02-01',
      '2027-02-03',
      '2027-02-05',
      '2027-02-08',
      '2027-02-10',
      '2027-02-15',
      '2027-02-17',
      '2027-02-22',
      '2027-02-24',
    ]);
    expect(byDate['2027-02-01']).toEqual({
      date: '2027-02-01',
      count: 1,
      started_at: '16:00:00',
      ended_at: '18:00:00',
      is_blocked: false,
    });
    expect(byDate['2027-02-03']).toMatchObject({ count: 1, is_blocked: true });
    expect(byDate['2027-02-05']).toEqual({
      date: '2027-02-05',
      count: 1,
      started_at: '00:00:00',
      ended_at: '23:59:00',
      is_blocked: true,
    });
    expect(byDate['2027-02-08']).toEqual({
      date: '2027-02-08',
      count: 2,
      started_at: '11:00:00',
      ended_at: '18:00:00',
      is_blocked: false,
    });
    // A date's own unblocking wins over the weekday's whole-day block.
    expect(byDate['2027-02-10']).toMatchObject({ count: 2, is_blocked: false });

    // A month without date rules still shows the weekdays of the global rules.
    const march = await monthCount(u.id, 2027, 3);
    expect(march.data.find((d) => d.date === '2027-03-01')).toMatchObject({ count: 2 });
    expect(march.data).toHaveLength(5 + 5); // five Mondays, five Wednesdays
    const empty = await monthCount(other.id, 2031, 7);
    expect(empty.data).toEqual([]);
  });

  it.each([
    [{ month: '13' }, 'month'],
    [{ month: '0' }, 'month'],
    [{ year: 'dwa' }, 'year'],
    [{ year: undefined }, 'year'],
  ])('refuses %j with 422', async (overrides, field) => {
    const query = Object.fromEntries(
      Object.entries({ unit_id: String(unit.id), year: '2027', month: '2', ...overrides }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Record<string, string>;
    const res = await t.request('GET', '/api/units/calendar/get_rules_count', {
      ...asAdmin(),
      query,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual([field]);
  });
});

describe('PUT and DELETE /api/units/calendar/{id}', () => {
  it('changes a rule and bumps its version; a stale version answers 409', async () => {
    const saved = await create({ date: '2027-07-05' });
    const res = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
      ...asAdmin(),
      body: rule({
        date: '2027-07-05',
        started_at: '09:00',
        type: 'disabled',
        is_global: true,
        version: 1,
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      data: { ...saved, started_at: '09:00:00', type: 'disabled', is_global: true, version: 2 },
    });
    const stale = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
      ...asAdmin(),
      body: rule({ date: '2027-07-05', version: 1 }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const current = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
      ...asAdmin(),
      body: rule({ date: '2027-07-05', version: 2 }),
    });
    expect(current.statusCode).toBe(200);
    expect(current.json<{ data: CalendarRule }>().data.version).toBe(3);
  });

  it('claims the version: none (the contract body) wins; of three edits at once one wins (ADR 018)', async () => {
    const saved = await create({ date: '2027-07-08' });
    const unversioned = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
      ...asAdmin(),
      body: rule({ date: '2027-07-08', started_at: '08:30' }),
    });
    expect(unversioned.statusCode).toBe(200);
    expect(unversioned.json<{ data: CalendarRule }>().data.version).toBe(2);
    // In parallel: on PostgreSQL the claim's row lock makes the later edits wait, then refuse.
    const edits = await Promise.all(
      ['09:00', '10:00', '11:00'].map((started_at) =>
        t.request('PUT', `/api/units/calendar/${saved.id}`, {
          ...asAdmin(),
          body: rule({ date: '2027-07-08', started_at, ended_at: '12:00', version: 2 }),
        }),
      ),
    );
    const codes = edits.map((res) => res.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const winner = edits.find((res) => res.statusCode === 200)!.json<{ data: CalendarRule }>();
    const stored = (await dayRules(unit.id, '2027-07-08')).find((r) => r.id === saved.id);
    expect(stored).toEqual({ ...winner.data, version: 3 });
  });

  it('refuses end before start, 25:00 and moving the rule to another unit, changing nothing', async () => {
    const saved = await create({ date: '2027-07-06' });
    for (const [overrides, errors] of [
      [{ ended_at: '07:00' }, { ended_at: [END_BEFORE_START] }],
      [{ ended_at: '25:00' }, { ended_at: [INVALID_TIME] }],
      [{ unit_id: other.id }, { unit_id: ['Niektóre pola są nieprawidłowe'] }],
    ] as const) {
      const res = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
        ...asAdmin(),
        body: rule({ date: '2027-07-06', version: 1, ...overrides }),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ status: 'validation_error', errors });
    }
    expect(await dayRules(unit.id, '2027-07-06')).toEqual([saved]);
  });

  it('refuses a change into an exact duplicate with 409', async () => {
    await create({ date: '2027-07-07', started_at: '08:00', ended_at: '09:00' });
    const second = await create({ date: '2027-07-07', started_at: '10:00', ended_at: '11:00' });
    const res = await t.request('PUT', `/api/units/calendar/${second.id}`, {
      ...asAdmin(),
      body: rule({ date: '2027-07-07', started_at: '08:00', ended_at: '09:00', version: 1 }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'exist_rule' });
  });

  it('toggles a whole-day block: POST creates it, DELETE removes it', async () => {
    const u = await t.unit();
    const block = await create({
      unit_id: u.id,
      date: '2027-07-09',
      started_at: '00:00',
      ended_at: '23:59',
      type: 'disabled',
    });
    expect((await monthCount(u.id, 2027, 7)).data).toEqual([
      {
        date: '2027-07-09',
        count: 1,
        started_at: '00:00:00',
        ended_at: '23:59:00',
        is_blocked: true,
      },
    ]);
    const res = await t.request('DELETE', `/api/units/calendar/${block.id}`, asAdmin());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success' });
    expect((await monthCount(u.id, 2027, 7)).data).toEqual([]);
    const again = await t.request('DELETE', `/api/units/calendar/${block.id}`, asAdmin());
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(NOT_FOUND);
  });

  it('answers 404 for a rule that does not exist', async () => {
    const put = await t.request('PUT', '/api/units/calendar/999999', {
      ...asAdmin(),
      body: rule({ version: 1 }),
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual(NOT_FOUND);
  });
});

describe('access', () => {
  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', `/api/units/calendar/get_by_filters?unit_id=${unit.id}&date=2027-01-04`],
      ['GET', `/api/units/calendar/get_rules_count?unit_id=${unit.id}&year=2027&month=1`],
      ['POST', '/api/units/calendar'],
      ['PUT', '/api/units/calendar/1'],
      ['DELETE', '/api/units/calendar/1'],
    ] as const) {
      const res = await t.request(method, url, { body: method === 'POST' ? rule() : undefined });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it("lets a doctor manage the own unit's calendar", async () => {
    const saved = await create({ date: '2027-08-02', started_at: '06:00' }, asDoctor());
    expect(await dayRules(unit.id, '2027-08-02', asDoctor())).toEqual([saved]);
    const { data } = await monthCount(unit.id, 2027, 8, asDoctor());
    expect(data.map((d) => d.date)).toContain('2027-08-02');
    const put = await t.request('PUT', `/api/units/calendar/${saved.id}`, {
      ...asDoctor(),
      body: rule({ date: '2027-08-02', started_at: '07:00', version: 1 }),
    });
    expect(put.statusCode).toBe(200);
    const del = await t.request('DELETE', `/api/units/calendar/${saved.id}`, asDoctor());
    expect(del.statusCode).toBe(200);
  });

  it("answers 404 to a doctor reaching into another unit's calendar and changes nothing", async () => {
    const theirs = await create({ unit_id: other.id, date: '2027-08-03' });
    const before = await rowCount();
    const calls = [
      t.request('GET', '/api/units/calendar/get_by_filters', {
        ...asDoctor(),
        query: { unit_id: String(other.id), date: '2027-08-03' },
      }),
      t.request('GET', '/api/units/calendar/get_rules_count', {
        ...asDoctor(),
        query: { unit_id: String(other.id), year: '2027', month: '8' },
      }),
      t.request('POST', '/api/units/calendar', {
        ...asDoctor(),
        body: rule({ unit_id: other.id, date: '2027-08-04' }),
      }),
      t.request('PUT', `/api/units/calendar/${theirs.id}`, {
        ...asDoctor(),
        body: rule({ unit_id: other.id, date: '2027-08-03', started_at: '05:00', version: 1 }),
      }),
      // Naming the own unit does not move another unit's rule into it either.
      t.request('PUT', `/api/units/calendar/${theirs.id}`, {
        ...asDoctor(),
        body: rule({ date: '2027-08-03', started_at: '05:00', version: 1 }),
      }),
      t.request('DELETE', `/api/units/calendar/${theirs.id}`, asDoctor()),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect(await rowCount()).toBe(before);
    expect(await dayRules(other.id, '2027-08-03')).toEqual([theirs]);
  });

  it('sends calendar.manage with the session of both roles', () => {
    expect(admin.session.user.permissions).toContain('calendar.manage');
    expect(doctor.session.user.permissions).toContain('calendar.manage');
  });
});
