import { SETTING_DEFAULTS, addDays, warsawDay } from '@portal/shared';
import type { OverdueList } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
const today = warsawDay();
const day = (offset: number) => addDays(today, offset);

/** Named patients of the fixture, by the case they stand for. */
const p: Record<string, number> = {};

async function patient(name: string, doctor: ReadyDoctor, surname = name) {
  const created = await registerPatient(t, doctor, { surname });
  p[name] = created.id;
  return created.id;
}

let slot = 0;
/** Visits written directly (the booking API is another module's), each at its own minute. */
async function visit(patientId: number, date: string, cancelled = false) {
  slot += 1;
  await t.db.execute(sql`
    insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, cancelled_at)
    select id, unit_id, doctor_id, ${date}::date, time '07:00' + ${slot} * interval '1 minute',
      time '07:01' + ${slot} * interval '1 minute',
      ${cancelled ? sql`now()` : sql`null`}
    from patients where id = ${patientId}`);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unitA = await t.unit();
  const unitB = await t.unit();
  doctorA = await t.readyDoctor(unitA.id);
  doctorB = await t.readyDoctor(unitB.id);

  // Visit 2 is due at day 28 ± 3 after the first visit (the default schedule).
  await visit(await patient('overdue', doctorA, 'Kowalska'), day(-40));
  await visit(await patient('inWindow', doctorA), day(-20));
  const booked = await patient('booked', doctorA);
  await visit(booked, day(-40));
  await visit(booked, day(5));
  await visit(await patient('onlyCancelled', doctorA), day(-40), true);
  const deleted = await patient('deleted', doctorA);
  await visit(deleted, day(-40));
  const finished = await patient('finished', doctorA);
  await visit(finished, day(-40));
  await t.db.execute(sql`update patients set deleted_at = now() where id = ${deleted}`);
  await t.db.execute(sql`update patients set is_finished = true where id = ${finished}`);
  const done = await patient('scheduleDone', doctorA);
  for (let i = 0; i < 10; i++) await visit(done, day(-300 + i * 28));
  const secondCancelled = await patient('secondCancelled', doctorA, 'Adamczyk');
  await visit(secondCancelled, day(-40));
  await visit(secondCancelled, day(-12), true);
  // The window's last day is yesterday: overdue; today: not yet.
  await visit(await patient('closedYesterday', doctorA, 'Zając'), day(-32));
  await visit(await patient('closesToday', doctorA), day(-31));
  await patient('noVisit', doctorA);
  await visit(await patient('otherUnit', doctorB, 'Nowak'), day(-100));
});
afterAll(async () => {
  await t?.close();
});

async function overdue(token: string, query: Record<string, string> = {}) {
  const res = await t.request('GET', '/api/visits/overdue', { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OverdueList>();
}

const idsOf = (list: OverdueList) => list.data.map((row) => row.patient_id);

describe('GET /api/visits/overdue', () => {
  it('lists the patients whose next window closed before today, with the window', async () => {
    const list = await overdue(admin.session.token, {
      order_by: 'window_to',
      order_direction: 'asc',
    });
    // otherUnit's visit 2 window closed at day -69; the others' at -9, -9 and -1.
    expect(idsOf(list)).toEqual([p.otherUnit, p.overdue, p.secondCancelled, p.closedYesterday]);
    expect(list.total).toBe(4);
    expect(list.total_kind).toBe('exact');
    expect(list.data[1]).toEqual({
      id: p.overdue,
      patient_id: p.overdue,
      patient: { firstname: 'Tadeusz', surname: 'Kowalska', pesel: list.data[1]?.patient.pesel },
      unit_id: doctorA.doctor.unit_id,
      doctor_id: doctorA.doctor.id,
      visit: 2,
      target_date: day(-12),
      window_from: day(-15),
      window_to: day(-9),
      last_visit_date: day(-40),
    });
  });

  it('keeps a doctor to the own unit; another unit answers 404', async () => {
    const list = await overdue(doctorA.session.token, {
      order_by: 'surname',
      order_direction: 'asc',
    });
    expect(idsOf(list)).toEqual([p.secondCancelled, p.overdue, p.closedYesterday]);
    expect(list.total).toBe(3);
    const own = await overdue(doctorA.session.token, { unit_id: String(doctorA.doctor.unit_id) });
    expect(own.total).toBe(3);
    const other = await t.request('GET', '/api/visits/overdue', {
      token: doctorA.session.token,
      query: { unit_id: String(doctorB.doctor.unit_id) },
    });
    expect(other.statusCode).toBe(404);
    expect(idsOf(await overdue(doctorB.session.token))).toEqual([p.otherUnit]);
  });

  it('filters by unit for administrators, searches, sorts and pages', async () => {
    const unitB = await overdue(admin.session.token, { unit_id: String(doctorB.doctor.unit_id) });
    expect(idsOf(unitB)).toEqual([p.otherUnit]);
    const searched = await overdue(admin.session.token, { search: 'kowal' });
    expect(idsOf(searched)).toEqual([p.overdue]);
    const byId = await overdue(admin.session.token, { order_by: 'id', order_direction: 'desc' });
    expect(idsOf(byId)).toEqual(
      [p.otherUnit, p.overdue, p.secondCancelled, p.closedYesterday].sort((a, b) => b! - a!),
    );
    const page2 = await overdue(admin.session.token, {
      order_by: 'window_to',
      order_direction: 'asc',
      limit: '3',
      page: '2',
    });
    expect(idsOf(page2)).toEqual([p.closedYesterday]);
    expect(page2.total).toBe(4);
  });

  it('follows the schedule in the visit settings', async () => {
    const save = (schedule: unknown) =>
      t.request('POST', '/api/settings/visits', {
        token: admin.session.token,
        body: { value: { ...SETTING_DEFAULTS.visits, schedule } },
      });
    // Visit 2 at day 10 ± 1: inWindow (first visit 20 days ago) and closesToday are overdue too.
    let res = await save([{ visit: 2, day: 10, window_days: 1 }]);
    expect(res.statusCode, res.body).toBe(200);
    const list = await overdue(admin.session.token);
    expect(idsOf(list)).toEqual(expect.arrayContaining([p.inWindow, p.closesToday, p.overdue]));
    expect(idsOf(list)).not.toContain(p.booked);
    res = await save([]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await overdue(admin.session.token)).toEqual({ data: [], total: 0, total_kind: 'exact' });
    res = await save(SETTING_DEFAULTS.visits.schedule);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers 401 without a session and 422 for a bad query', async () => {
    const anonymous = await t.request('GET', '/api/visits/overdue');
    expect(anonymous.statusCode).toBe(401);
    const bad = await t.request('GET', '/api/visits/overdue', {
      token: admin.session.token,
      query: { order_by: 'pesel; drop table visits' },
    });
    expect(bad.statusCode).toBe(422);
  });
});
