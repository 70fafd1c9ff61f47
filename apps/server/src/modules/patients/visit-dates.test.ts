import { addDays, warsawDay } from '@portal/shared';
import type { PatientDetail, PatientListItem } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let doctor: ReadyDoctor;
const day = (offset: number) => addDays(warsawDay(), offset);

let slot = 0;
/** A visit written directly (booking is another module's), each at its own minute. */
async function visit(patientId: number, date: string, cancelled = false) {
  slot += 1;
  await t.db.execute(sql`
    insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, cancelled_at)
    select id, unit_id, doctor_id, ${date}::date, time '07:00' + ${slot} * interval '1 minute',
      time '07:01' + ${slot} * interval '1 minute', ${cancelled ? sql`now()` : sql`null`}
    from patients where id = ${patientId}`);
}

let withVisits: number;
let without: number;
beforeAll(async () => {
  t = await createTestApp();
  doctor = await t.readyDoctor((await t.unit()).id);
  withVisits = (await registerPatient(t, doctor, { surname: 'Wizytowa' })).id;
  without = (await registerPatient(t, doctor, { surname: 'Bezwizytowa' })).id;
  await visit(withVisits, day(-60));
  await visit(withVisits, day(-30));
  await visit(withVisits, day(-2), true); // cancelled: not the last visit
  await visit(withVisits, day(0)); // today's counts as the next one
  await visit(withVisits, day(20));
});
afterAll(async () => {
  await t?.close();
});

describe('last and next visit of a patient', () => {
  it('fills the list columns from live visits, today being the next', async () => {
    const res = await t.request('GET', '/api/patients', { token: doctor.session.token });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: PatientListItem[] }>().data;
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(withVisits)).toMatchObject({
      past_visit_date: day(-30),
      next_visit_date: day(0),
    });
    expect(byId.get(without)).toMatchObject({ past_visit_date: null, next_visit_date: null });
  });

  it('fills the card the same way', async () => {
    const res = await t.request('GET', `/api/patients/${withVisits}`, {
      token: doctor.session.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PatientDetail>()).toMatchObject({
      past_visit_date: day(-30),
      next_visit_date: day(0),
    });
  });
});
