import { addDays, calendarWeekday, warsawToday } from '@portal/shared';
import type { SlotsResponse, Unit } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient, registerPatient } from '../../test/patients-fixture.js';

/** A calendar write that closes booked visits warns first (ADR 041). */

let t: TestApp;
let admin: ReadyAdmin;
let unit: Unit;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unit = await t.unit();
  doctor = await t.readyDoctor(unit.id);
  stranger = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

const asAdmin = () => ({ token: admin.session.token });

/** The n-th weekday from a week after today (inside the booking horizon). */
let nextDay = addDays(warsawToday(), 7);
function freshWeekday(): string {
  do nextDay = addDays(nextDay, 1);
  while (calendarWeekday(nextDay) > 5);
  return nextDay;
}

async function book(date: string, started_at: string, surname = 'Nowak') {
  const patient = await registerPatient(t, doctor, { surname });
  const res = await t.request('POST', '/api/visits', {
    ...asAdmin(),
    body: { patient_id: patient.id, date, started_at },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { patient, visit: res.json<{ visit: { id: number } }>().visit };
}

const wholeDay = (date: string, extra: Record<string, unknown> = {}) => ({
  unit_id: unit.id,
  date,
  started_at: '00:00',
  ended_at: '23:59',
  type: 'disabled',
  is_global: false,
  ...extra,
});

async function rulesOf(date: string) {
  const res = await t.request('GET', '/api/units/calendar/get_by_filters', {
    ...asAdmin(),
    query: { unit_id: String(unit.id), date },
  });
  return res.json<{ data: { id: number }[] }>().data;
}

describe('blocking hours that hold booked visits', () => {
  it('answers 409 with the visits, writes nothing, and blocks once confirmed', async () => {
    const day = freshWeekday();
    const { patient, visit } = await book(day, '10:00', 'Kowalczyk');
    const refused = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      status: 'visits_booked',
      visits: [
        {
          id: visit.id,
          date: day,
          started_at: '10:00:00',
          ended_at: '10:30:00',
          patient: { id: patient.id, firstname: 'Tadeusz', surname: 'Kowalczyk' },
        },
      ],
    });
    expect(await rulesOf(day)).toEqual([]);

    const done = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day, { confirm_booked_visits: true }),
    });
    expect(done.statusCode, done.body).toBe(201);
    expect(await rulesOf(day)).toHaveLength(1);

    // The visit stays booked and visible beside the day's slots, marked closed; the open slots
    // are none, as for every blocked day.
    const slots = await t.request('GET', `/api/units/${unit.id}/slots`, {
      ...asAdmin(),
      query: { date: day },
    });
    expect(slots.json<SlotsResponse>().data).toEqual([]);
    expect(slots.json<SlotsResponse>().closed_visits).toEqual([
      {
        started_at: '10:00:00',
        ended_at: '10:30:00',
        visit: {
          id: visit.id,
          patient_id: patient.id,
          patient: { firstname: 'Tadeusz', surname: 'Kowalczyk' },
        },
        closed: true,
      },
    ]);
    // And the day's visits list still has it.
    const list = await t.request('GET', '/api/visits', {
      ...asAdmin(),
      query: { date: day, unit_id: String(unit.id) },
    });
    expect(list.json<{ data: { id: number }[] }>().data.map((v) => v.id)).toEqual([visit.id]);

    // Already in closed hours: a further block of that day does not ask again.
    const again = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '09:00', ended_at: '11:00' }),
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('lets a block that misses every booked visit through, and asks a doctor of the unit too', async () => {
    const day = freshWeekday();
    await book(day, '08:00');
    const beside = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '12:00', ended_at: '13:00' }),
    });
    expect(beside.statusCode, beside.body).toBe(201);
    const asked = await t.request('POST', '/api/units/calendar', {
      token: doctor.session.token,
      body: wholeDay(day, { started_at: '07:00', ended_at: '09:00' }),
    });
    expect(asked.statusCode).toBe(409);
    expect(asked.json<{ visits: unknown[] }>().visits).toHaveLength(1);
    // Another unit's doctor learns nothing of them.
    const foreign = await t.request('POST', '/api/units/calendar', {
      token: stranger.session.token,
      body: wholeDay(day),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('reaches every such weekday with a global block, and an edit that moves a rule onto a visit', async () => {
    const day = freshWeekday();
    const { visit } = await book(day, '14:00');
    // A global rule made on an earlier date of the same weekday.
    const refused = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(addDays(day, -7), { started_at: '13:30', ended_at: '15:00', is_global: true }),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ visits: { id: number }[] }>().visits.map((v) => v.id)).toEqual([
      visit.id,
    ]);

    const early = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '08:00', ended_at: '09:00' }),
    });
    expect(early.statusCode, early.body).toBe(201);
    const id = early.json<{ data: { id: number } }>().data.id;
    const moved = await t.request('PUT', `/api/units/calendar/${id}`, {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '13:00', ended_at: '15:00' }),
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ status: 'visits_booked' });
    const confirmed = await t.request('PUT', `/api/units/calendar/${id}`, {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '13:00', ended_at: '15:00', confirm_booked_visits: true }),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it('asks before deleting an unblock whose hours hold a booked visit', async () => {
    const day = freshWeekday();
    const evening = await t.request('POST', '/api/units/calendar', {
      ...asAdmin(),
      body: wholeDay(day, { started_at: '16:00', ended_at: '18:00', type: 'enabled' }),
    });
    expect(evening.statusCode, evening.body).toBe(201);
    const id = evening.json<{ data: { id: number } }>().data.id;
    await book(day, '16:30');
    const refused = await t.request('DELETE', `/api/units/calendar/${id}`, asAdmin());
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ visits: { started_at: string }[] }>().visits[0]!.started_at).toBe(
      '16:30:00',
    );
    expect(await rulesOf(day)).toHaveLength(1);
    const done = await t.request('DELETE', `/api/units/calendar/${id}`, {
      ...asAdmin(),
      query: { confirm_booked_visits: 'true' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await rulesOf(day)).toEqual([]);
  });

  it('refuses a patient (403) and a caller without a token (401)', async () => {
    const patient = await readyPatient(t, doctor);
    const day = freshWeekday();
    expect(
      (
        await t.request('POST', '/api/units/calendar', {
          token: patient.session.token,
          body: wholeDay(day),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.request('POST', '/api/units/calendar', { body: wholeDay(day) })).statusCode,
    ).toBe(401);
  });
});
