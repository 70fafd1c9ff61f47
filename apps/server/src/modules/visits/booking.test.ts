import { SETTING_DEFAULTS, addDays, isoWeekday, warsawDay, warsawDayStart } from '@portal/shared';
import type { DaySlot, Visit } from '@portal/shared';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, patients, visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import type { Actor } from '../../plugins/policy.js';
import { bookVisit, cancelVisit } from './booking.js';
import { unitDaySlots } from './slots-service.js';

/*
 * The app reads the real clock, so booked days lie years ahead and "past" days years behind:
 * the answers do not depend on when the tests run.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let other: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  other = await t.readyDoctor((await t.unit()).id);
  // The tests book years ahead (see above): beyond the default two-year horizon (ADR 038), so
  // this app books up to ten years ahead; 'the booking horizon' below tests the horizon itself.
  await setHorizon(3650);
});
afterAll(() => t?.close());

async function setHorizon(days: number) {
  const res = await t.request('POST', '/api/settings/visits', {
    token: admin.session.token,
    body: { value: { ...SETTING_DEFAULTS.visits, booking_horizon_days: days } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

let weekSerial = 0;
/** A Monday of its own, years ahead, for each test (no two tests share a day). */
function freshMonday(): string {
  weekSerial += 1;
  let day = addDays('2031-01-06', weekSerial * 7 * 6);
  while (isoWeekday(day) !== 1) day = addDays(day, 1);
  return day;
}

const as = (who: { session: { token: string } }) => ({ token: who.session.token });
const NOT_AVAILABLE = { status: 'not_available' };

function book(body: Record<string, unknown>, who: { session: { token: string } } = doctor) {
  return t.request('POST', '/api/visits', { ...as(who), body });
}

async function booked(
  body: Record<string, unknown>,
  who: { session: { token: string } } = doctor,
): Promise<Visit> {
  const res = await book(body, who);
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json<{ status: string; visit: Visit }>();
  expect(answer.status).toBe('ok');
  return answer.visit;
}

async function slots(unitId: number, date: string, who: { session: { token: string } } = doctor) {
  return t.request('GET', `/api/units/${unitId}/slots`, { ...as(who), query: { date } });
}

/** The rows and audit entries that a refused call must leave as they were. */
async function footprint() {
  const [v] = await t.db.select({ n: count() }).from(visits);
  const [a] = await t.db.select({ n: count() }).from(auditEntries);
  const [c] = await t.db.select({ n: count() }).from(visits).where(isNotNull(visits.cancelled_at));
  return { visits: v!.n, audit: a!.n, cancelled: c!.n };
}

async function rule(unitId: number, date: string, from: string, to: string, type: string) {
  const res = await t.request('POST', '/api/units/calendar', {
    ...as(admin),
    body: { unit_id: unitId, date, started_at: from, ended_at: to, type, is_global: false },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** A visit written straight into the table: booking through the API never makes a past one. */
async function pastVisit(patientId: number, unitId: number, date: string, done = false) {
  const [row] = await t.db
    .insert(visits)
    .values({
      patient_id: patientId,
      unit_id: unitId,
      doctor_id: doctor.doctor.id,
      date,
      started_at: '10:00:00',
      ended_at: '10:30:00',
      is_done: done,
    })
    .returning({ id: visits.id });
  return row!.id;
}

describe('GET /api/units/:id/slots', () => {
  it("answers the day's grid with HH:MM:SS times, booked slots showing the patient", async () => {
    const unitId = doctor.doctor.unit_id;
    const day = freshMonday();
    const free = await slots(unitId, day);
    expect(free.statusCode, free.body).toBe(200);
    const data = free.json<{ data: DaySlot[] }>().data;
    // 08:00–16:00 in 30 minutes by default.
    expect(data).toHaveLength(16);
    expect(data[0]).toEqual({ started_at: '08:00:00', ended_at: '08:30:00', visit: null });
    expect(data[15]).toEqual({ started_at: '15:30:00', ended_at: '16:00:00', visit: null });

    const patient = await registerPatient(t, doctor, { firstname: 'Zofia', surname: 'Sęk' });
    const visit = await booked({ patient_id: patient.id, date: day, started_at: '09:00' });
    const after = (await slots(unitId, day)).json<{ data: DaySlot[] }>().data;
    expect(after.find((s) => s.started_at === '09:00:00')?.visit).toEqual({
      id: visit.id,
      patient_id: patient.id,
      patient: { firstname: 'Zofia', surname: 'Sęk' },
    });
    expect(after.filter((s) => s.visit !== null)).toHaveLength(1);
  });

  it('is empty on weekends, past days and blocked days', async () => {
    const unitId = doctor.doctor.unit_id;
    const monday = freshMonday();
    await rule(unitId, monday, '00:00', '23:59', 'disabled');
    for (const date of [addDays(monday, 5), addDays(monday, 6), '2020-01-06', monday]) {
      const res = await slots(unitId, date);
      expect(res.statusCode, date).toBe(200);
      expect(res.json(), date).toEqual({ data: [] });
    }
  });

  it("follows the unit's rules: a blocked break and extra evening hours", async () => {
    const unitId = doctor.doctor.unit_id;
    const day = addDays(freshMonday(), 1);
    await rule(unitId, day, '12:00', '14:00', 'disabled');
    await rule(unitId, day, '16:00', '17:00', 'enabled');
    const data = (await slots(unitId, day)).json<{ data: DaySlot[] }>().data;
    expect(data.map((s) => s.started_at)).not.toContain('12:30:00');
    expect(data.map((s) => s.started_at)).toContain('16:30:00');
    expect(data).toHaveLength(16 - 4 + 2);
  });

  it("answers 404 for another unit's or a missing unit's slots", async () => {
    const day = freshMonday();
    expect((await slots(other.doctor.unit_id, day)).statusCode).toBe(404);
    expect((await slots(999999, day, admin)).json()).toEqual({ status: 'not_found' });
    expect((await slots(other.doctor.unit_id, day, admin)).statusCode).toBe(200);
  });
});

describe('booking', () => {
  it("books with the patient's doctor and unit, the slot's end, and audits the row", async () => {
    const patient = await registerPatient(t, doctor);
    const day = freshMonday();
    const visit = await booked({ patient_id: patient.id, date: day, started_at: '10:30' });
    expect(visit).toMatchObject({
      date: day,
      started_at: '10:30:00',
      ended_at: '11:00:00',
      ordinal: 1,
      patient_id: patient.id,
      doctor_id: doctor.doctor.id,
      unit_id: doctor.doctor.unit_id,
      isDone: false,
      out_of_window: false,
      window_reason: null,
      version: 1,
    });
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entity_name, 'visits'), eq(auditEntries.patient_id, patient.id)));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.user_id === doctor.session.user.id)).toBe(true);
    expect(entries.map((e) => e.operation)).toContain(entries[0]!.operation);
    expect(entries.find((e) => e.column_name === 'date')?.new_value).toBe(day);

    // ended_at sent as the slot's end is accepted; an administrator books too.
    const second = await booked(
      {
        patient_id: patient.id,
        date: day,
        started_at: '11:00',
        ended_at: '11:30',
        // The second visit on the first one's day lies outside visit 2's window.
        window_reason: 'Kontrola tego samego dnia',
      },
      admin,
    );
    expect(second.ordinal).toBe(2);
  });

  it('refuses every bad slot with 409 or 422 and changes nothing', async () => {
    const unitId = doctor.doctor.unit_id;
    const patient = await registerPatient(t, doctor);
    const rival = await registerPatient(t, doctor);
    const theirs = await registerPatient(t, other);
    const day = freshMonday();
    await rule(unitId, day, '12:00', '14:00', 'disabled');
    // Another unit opens its evening: that is not this unit's hour.
    await rule(other.doctor.unit_id, day, '16:00', '20:00', 'enabled');
    await booked({ patient_id: rival.id, date: day, started_at: '08:00' });
    const deleted = await registerPatient(t, doctor);
    expect((await t.request('DELETE', `/api/patients/${deleted.id}`, as(doctor))).statusCode).toBe(
      200,
    );

    const base = { patient_id: patient.id, date: day, started_at: '09:00' };
    const cases: [string, Record<string, unknown>, number, unknown][] = [
      ['weekend', { ...base, date: addDays(day, 5) }, 409, NOT_AVAILABLE],
      ['past day', { ...base, date: '2020-01-06' }, 409, NOT_AVAILABLE],
      ['blocked hour', { ...base, started_at: '12:30' }, 409, NOT_AVAILABLE],
      ['off the grid', { ...base, started_at: '09:15' }, 409, NOT_AVAILABLE],
      ['wrong end', { ...base, ended_at: '10:00' }, 409, NOT_AVAILABLE],
      ["another unit's hour", { ...base, started_at: '17:00' }, 409, NOT_AVAILABLE],
      ['taken slot', { ...base, started_at: '08:00' }, 409, NOT_AVAILABLE],
      ['deleted patient', { ...base, patient_id: deleted.id }, 409, { status: 'patient_deleted' }],
      ["another unit's patient", { ...base, patient_id: theirs.id }, 404, { status: 'not_found' }],
      ['missing patient', { ...base, patient_id: 999999 }, 404, { status: 'not_found' }],
      ['no date', { ...base, date: undefined }, 422, undefined],
      ['25:00', { ...base, started_at: '25:00' }, 422, undefined],
    ];
    const before = await footprint();
    for (const [what, body, status, answer] of cases) {
      const res = await book(body);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      if (answer) expect(res.json(), what).toEqual(answer);
    }
    const wrongDoctor = await book({ ...base, doctor_id: other.doctor.id });
    expect(wrongDoctor.statusCode).toBe(422);
    expect(wrongDoctor.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(
      'doctor_id',
    );
    const missingDoctor = await book({ ...base, doctor_id: 999999 });
    expect(missingDoctor.statusCode, missingDoctor.body).toBe(422);
    expect(await footprint()).toEqual(before);
    // The same body in a free slot books.
    await booked(base);
  });
});

describe('rescheduling and cancelling', () => {
  it('moves a visit, frees its old slot and refuses a stale version', async () => {
    const unitId = doctor.doctor.unit_id;
    const patient = await registerPatient(t, doctor);
    const day = freshMonday();
    const visit = await booked({ patient_id: patient.id, date: day, started_at: '10:00' });
    const moved = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: addDays(day, 1), started_at: '11:00', version: 1 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ visit: Visit }>().visit).toMatchObject({
      id: visit.id,
      date: addDays(day, 1),
      started_at: '11:00:00',
      ended_at: '11:30:00',
      version: 2,
    });
    const old = (await slots(unitId, day)).json<{ data: DaySlot[] }>().data;
    expect(old.every((s) => s.visit === null)).toBe(true);

    const before = await footprint();
    const stale = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: day, started_at: '09:00', version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const weekend = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: addDays(day, 5), started_at: '09:00', version: 2 },
    });
    expect(weekend.json()).toEqual(NOT_AVAILABLE);
    expect(await footprint()).toEqual(before);

    // Moving within its own slot (same time) is not "taken".
    const same = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: addDays(day, 1), started_at: '11:00', version: 2 },
    });
    expect(same.statusCode, same.body).toBe(200);
    // The contract's body has no version (ADR 018): without one the move is claimed and wins.
    const unversioned = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: addDays(day, 1), started_at: '12:00' },
    });
    expect(unversioned.statusCode, unversioned.body).toBe(200);
    expect(unversioned.json()).toMatchObject({ visit: { started_at: '12:00:00', version: 4 } });
  });

  it('cancels an upcoming visit, keeping the row and freeing the slot', async () => {
    const unitId = doctor.doctor.unit_id;
    const patient = await registerPatient(t, doctor);
    const day = freshMonday();
    const visit = await booked({ patient_id: patient.id, date: day, started_at: '14:00' });
    const res = await t.request('DELETE', `/api/visits/${visit.id}`, as(doctor));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'success' });
    const [row] = await t.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(row?.cancelled_at).not.toBeNull();
    const data = (await slots(unitId, day)).json<{ data: DaySlot[] }>().data;
    expect(data.find((s) => s.started_at === '14:00:00')?.visit).toBeNull();
    // Gone for every reader: a second cancel answers 404, and another patient may take the slot.
    expect((await t.request('DELETE', `/api/visits/${visit.id}`, as(doctor))).statusCode).toBe(404);
    const next = await registerPatient(t, doctor);
    await booked({ patient_id: next.id, date: day, started_at: '14:00' });
  });

  it('refuses to move or cancel a past or done visit, changing nothing', async () => {
    const patient = await registerPatient(t, doctor);
    const past = await pastVisit(patient.id, doctor.doctor.unit_id, '2024-03-04');
    const done = await pastVisit(patient.id, doctor.doctor.unit_id, '2024-03-05', true);
    const day = freshMonday();
    const before = await footprint();
    for (const [id, word] of [
      [past, 'visit_past'],
      [done, 'visit_done'],
    ] as const) {
      const cancel = await t.request('DELETE', `/api/visits/${id}`, as(doctor));
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json()).toEqual({ status: word });
      const move = await t.request('PUT', `/api/visits/${id}`, {
        ...as(doctor),
        body: {
          patient_id: patient.id,
          date: day,
          started_at: '09:00',
          window_reason: 'Urlop',
          version: 1,
        },
      });
      expect(move.statusCode).toBe(409);
      expect(move.json()).toEqual({ status: word });
    }
    expect(await footprint()).toEqual(before);
  });

  it("answers 404 for another unit's visit", async () => {
    const patient = await registerPatient(t, other);
    const visit = await booked(
      { patient_id: patient.id, date: freshMonday(), started_at: '10:00' },
      other,
    );
    const before = await footprint();
    expect((await t.request('DELETE', `/api/visits/${visit.id}`, as(doctor))).statusCode).toBe(404);
    const move = await t.request('PUT', `/api/visits/${visit.id}`, {
      ...as(doctor),
      body: { patient_id: patient.id, date: visit.date, started_at: '11:00', version: 1 },
    });
    expect(move.statusCode).toBe(404);
    expect(await footprint()).toEqual(before);
  });
});

describe('today, on a pinned clock (the services take "now")', () => {
  const actorOf = (who: ReadyDoctor): Actor => ({
    userId: who.session.user.id,
    sessionId: 0,
    login: who.login,
    role: 'doctor',
    doctorId: who.doctor.id,
    unitId: who.doctor.unit_id,
    changedPasswordAt: new Date(),
  });

  it("offers today's slots from the clock on and refuses to book or cancel before it", async () => {
    const day = freshMonday();
    const actor = actorOf(doctor);
    // 10:10 in Warsaw: the first slot is 10:30.
    const at1010 = new Date(warsawDayStart(day).getTime() + (10 * 60 + 10) * 60_000);
    const today = await unitDaySlots(t.db, actor, doctor.doctor.unit_id, day, at1010);
    expect(today.data[0]?.started_at).toBe('10:30:00');
    expect(today.data).toHaveLength(11);

    const patient = await registerPatient(t, doctor);
    const early = { patient_id: patient.id, date: day, started_at: '10:00:00' };
    await expect(bookVisit(t.db, actor, early, at1010)).rejects.toMatchObject({
      statusCode: 409,
      status: 'not_available',
    });
    const visit = await bookVisit(t.db, actor, { ...early, started_at: '11:00:00' }, at1010);
    // At 11:00 the visit has begun: it stays.
    const at1100 = new Date(at1010.getTime() + 50 * 60_000);
    await expect(cancelVisit(t.db, actor, visit.id, at1100)).rejects.toMatchObject({
      statusCode: 409,
      status: 'visit_past',
    });
    await cancelVisit(t.db, actor, visit.id, at1010);
  });
});

describe('the booking horizon (ADR 038)', () => {
  it('books up to today + the horizon; a later day has no slots and answers not_available', async () => {
    const unitId = doctor.doctor.unit_id;
    await setHorizon(30);
    try {
      const today = warsawDay();
      const last = addDays(today, 30);
      // The last weekday within the horizon and the first weekday after it.
      let inside = last;
      while ((isoWeekday(inside) ?? 7) > 5) inside = addDays(inside, -1);
      let beyond = addDays(last, 1);
      while ((isoWeekday(beyond) ?? 7) > 5) beyond = addDays(beyond, 1);

      const window = await t.request(
        'GET',
        `/api/patients/${(await registerPatient(t, doctor)).id}/visit_window`,
        as(doctor),
      );
      expect(window.json()).toEqual({ data: null, bookable_until: last });

      expect((await slots(unitId, inside)).json<{ data: DaySlot[] }>().data.length).toBeGreaterThan(
        0,
      );
      expect((await slots(unitId, beyond)).json()).toEqual({ data: [] });

      const patient = await registerPatient(t, doctor);
      const before = await footprint();
      const refused = await book({ patient_id: patient.id, date: beyond, started_at: '15:30' });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual(NOT_AVAILABLE);
      expect(await footprint()).toEqual(before);

      const visit = await booked({ patient_id: patient.id, date: inside, started_at: '15:30' });
      // Moving it beyond the horizon is refused the same way, and the visit stays.
      const moved = await t.request('PUT', `/api/visits/${visit.id}`, {
        ...as(doctor),
        body: { patient_id: patient.id, date: beyond, started_at: '15:30', version: 1 },
      });
      expect(moved.statusCode, moved.body).toBe(409);
      expect(moved.json()).toEqual(NOT_AVAILABLE);
      const [row] = await t.db.select().from(visits).where(eq(visits.id, visit.id));
      expect(row).toMatchObject({ date: inside, version: 1 });

      // A longer horizon lets the same day in.
      await setHorizon(60);
      const later = await t.request('PUT', `/api/visits/${visit.id}`, {
        ...as(doctor),
        body: { patient_id: patient.id, date: beyond, started_at: '15:30', version: 1 },
      });
      expect(later.statusCode, later.body).toBe(200);
    } finally {
      await setHorizon(3650);
    }
  });

  it('refuses a day beyond the horizon on a pinned clock, by the service itself', async () => {
    const day = freshMonday();
    const actor: Actor = {
      userId: doctor.session.user.id,
      sessionId: 0,
      login: doctor.login,
      role: 'doctor',
      doctorId: doctor.doctor.id,
      unitId: doctor.doctor.unit_id,
      changedPasswordAt: new Date(),
    };
    const patient = await registerPatient(t, doctor);
    const body = { patient_id: patient.id, date: day, started_at: '09:00:00' };
    // 3651 days before the day: one day beyond the horizon of 3650.
    const tooEarly = new Date(warsawDayStart(addDays(day, -3651)).getTime() + 12 * 3_600_000);
    await expect(bookVisit(t.db, actor, body, tooEarly)).rejects.toMatchObject({
      statusCode: 409,
      status: 'not_available',
    });
    const justIn = new Date(warsawDayStart(addDays(day, -3650)).getTime() + 12 * 3_600_000);
    expect((await bookVisit(t.db, actor, body, justIn)).date).toBe(day);
  });
});

describe('visit windows', () => {
  it('asks for a reason outside the window, then stores and flags it', async () => {
    const patient = await registerPatient(t, doctor);
    const first = freshMonday();
    const none = await t.request('GET', `/api/patients/${patient.id}/visit_window`, as(doctor));
    expect(none.json()).toEqual({ data: null, bookable_until: addDays(warsawDay(), 3650) });
    await booked({ patient_id: patient.id, date: first, started_at: '09:00' });

    // Visit 2 is due on day 28 ± 3 by default.
    const window = await t.request('GET', `/api/patients/${patient.id}/visit_window`, as(doctor));
    expect(window.json()).toMatchObject({
      data: {
        visit: 2,
        target_date: addDays(first, 28),
        from: addDays(first, 25),
        to: addDays(first, 31),
      },
    });

    const late = { patient_id: patient.id, date: addDays(first, 35), started_at: '09:00' };
    const before = await footprint();
    for (const reason of [undefined, null, '', '   ']) {
      const res = await book({ ...late, window_reason: reason });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
        window_reason: ['Wizyta poza oknem wizyty wymaga podania powodu'],
      });
    }
    expect(await footprint()).toEqual(before);

    const flagged = await booked({ ...late, window_reason: 'Pacjent w szpitalu' });
    expect(flagged).toMatchObject({
      ordinal: 2,
      out_of_window: true,
      window_reason: 'Pacjent w szpitalu',
    });
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.patient_id, patient.id), eq(auditEntries.column_name, 'window_reason')),
      );
    expect(entries.map((e) => e.new_value)).toContain('Pacjent w szpitalu');

    // Moved into the window: no flag, no reason.
    const moved = await t.request('PUT', `/api/visits/${flagged.id}`, {
      ...as(doctor),
      body: {
        ...late,
        date: addDays(first, 28),
        window_reason: 'Pacjent w szpitalu',
        version: flagged.version,
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ visit: Visit }>().visit).toMatchObject({
      out_of_window: false,
      window_reason: null,
    });
  });
});

describe('day lists and month counts', () => {
  it("lists a day's visits and counts a month's, within the actor's units", async () => {
    const day = freshMonday();
    const mine = await registerPatient(t, doctor);
    const theirs = await registerPatient(t, other);
    const a = await booked({ patient_id: mine.id, date: day, started_at: '08:30' });
    const b = await booked({ patient_id: theirs.id, date: day, started_at: '08:30' }, other);
    await booked({
      patient_id: mine.id,
      date: addDays(day, 2),
      started_at: '08:30',
      window_reason: 'Powtórne EKG',
    });

    const ids = (res: { json: <T>() => T }) => res.json<{ data: Visit[] }>().data.map((v) => v.id);
    const own = await t.request('GET', '/api/visits', { ...as(doctor), query: { date: day } });
    expect(ids(own)).toEqual([a.id]);
    const all = await t.request('GET', '/api/visits', { ...as(admin), query: { date: day } });
    expect(ids(all)).toEqual(expect.arrayContaining([a.id, b.id]));
    const named = await t.request('GET', '/api/visits', {
      ...as(doctor),
      query: { date: day, unit_id: String(other.doctor.unit_id) },
    });
    expect(named.statusCode).toBe(404);

    const [year, month] = day.split('-').map(Number);
    const counted = await t.request('GET', '/api/visits/count', {
      ...as(doctor),
      query: { year: String(year), month: String(month) },
    });
    expect(counted.statusCode).toBe(200);
    const data = counted.json<{ data: { date: string; count: number }[] }>().data;
    expect(data.find((d) => d.date === day)?.count).toBe(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('gives one slot to exactly one of 50 bookings sent at once', async () => {
    const day = freshMonday();
    const crowd = [];
    for (let i = 0; i < 50; i++) crowd.push(await registerPatient(t, doctor));
    const answers = await Promise.all(
      crowd.map((p) => book({ patient_id: p.id, date: day, started_at: '12:00' })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(a.json()).toEqual(NOT_AVAILABLE);
    const rows = await t.db
      .select({ n: count() })
      .from(visits)
      .where(and(eq(visits.date, day), eq(visits.started_at, '12:00:00')));
    expect(rows[0]!.n).toBe(1);
  });

  it('gives one patient one visit per slot, even across two units', async () => {
    const day = freshMonday();
    const patient = await registerPatient(t, doctor);
    // The patient moves unit between bookings of the same hour: the patient's slot index holds.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        book({ patient_id: patient.id, date: day, started_at: '13:00' }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    await t.db
      .update(patients)
      .set({ unit_id: other.doctor.unit_id, doctor_id: other.doctor.id })
      .where(eq(patients.id, patient.id));
    const elsewhere = await book({ patient_id: patient.id, date: day, started_at: '13:00' }, admin);
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json()).toEqual(NOT_AVAILABLE);
    const rows = await t.db
      .select({ n: count() })
      .from(visits)
      .where(and(eq(visits.patient_id, patient.id), eq(visits.date, day)));
    expect(rows[0]!.n).toBe(1);
  });
});
