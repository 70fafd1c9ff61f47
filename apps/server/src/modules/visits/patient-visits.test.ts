import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Visit } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  stranger = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

/** Visits written straight to the table: the booking rules are the booking API's tests' concern. */
async function insertVisit(
  patient: { id: number },
  date: string,
  started_at: string,
  extra: Partial<typeof visits.$inferInsert> = {},
) {
  const [row] = await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patient.id,
        unit_id: doctor.doctor.unit_id,
        doctor_id: doctor.doctor.id,
        date,
        started_at,
        ended_at: `${started_at.slice(0, 2)}:30:00`,
        ...extra,
      })
      .returning({ id: visits.id }),
  );
  if (!row) throw new Error('no visit inserted');
  return row.id;
}

describe('GET /api/patients/:id/visits', () => {
  it("lists a patient's live visits oldest first with ordinals, doctor and window flag", async () => {
    const patient = await registerPatient(t, doctor);
    const other = await registerPatient(t, doctor);
    const second = await insertVisit(patient, '2026-03-02', '09:00:00', {
      out_of_window: true,
      window_reason: 'Pacjent w szpitalu',
    });
    const first = await insertVisit(patient, '2026-02-02', '10:00:00', {
      is_done: true,
      comment: '<p>Bez zmian</p>',
    });
    const cancelled = await insertVisit(patient, '2026-02-10', '08:00:00', {
      cancelled_at: new Date(),
    });
    await insertVisit(other, '2026-02-01', '08:00:00');

    const res = await t.request('GET', `/api/patients/${patient.id}/visits`, {
      token: doctor.session.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ data: Visit[] }>().data;
    expect(list.map((v) => v.id)).toEqual([first, second]);
    expect(list.map((v) => v.id)).not.toContain(cancelled);
    expect(list[0]).toMatchObject({
      ordinal: 1,
      date: '2026-02-02',
      started_at: '10:00:00',
      ended_at: '10:30:00',
      isDone: true,
      comment: '<p>Bez zmian</p>',
      out_of_window: false,
      doctor: { firstname: doctor.doctor.firstname, surname: doctor.doctor.surname },
    });
    expect(list[1]).toMatchObject({
      ordinal: 2,
      out_of_window: true,
      window_reason: 'Pacjent w szpitalu',
    });

    const byAdmin = await t.request('GET', `/api/patients/${patient.id}/visits`, {
      token: admin.session.token,
    });
    expect(byAdmin.json<{ data: Visit[] }>().data).toHaveLength(2);
  });

  it('answers an empty list for a patient without visits', async () => {
    const patient = await registerPatient(t, doctor);
    const res = await t.request('GET', `/api/patients/${patient.id}/visits`, {
      token: doctor.session.token,
    });
    expect(res.json()).toEqual({ data: [] });
  });

  it("answers 401 without a token and 404 for another unit's or a missing patient", async () => {
    const patient = await registerPatient(t, doctor);
    await insertVisit(patient, '2026-04-06', '11:00:00');
    expect((await t.request('GET', `/api/patients/${patient.id}/visits`)).statusCode).toBe(401);
    const other = await t.request('GET', `/api/patients/${patient.id}/visits`, {
      token: stranger.session.token,
    });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('Mazur');
    const missing = await t.request('GET', '/api/patients/99999999/visits', {
      token: admin.session.token,
    });
    expect(missing.statusCode).toBe(404);
  });
});
