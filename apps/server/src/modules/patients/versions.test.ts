import type { PatientDetail, PatientUpdateBody } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { putWithReason } from '../../test/versions.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

async function read(id: number): Promise<PatientDetail> {
  const res = await t.request('GET', `/api/patients/${id}`, { token: doctor.session.token });
  expect(res.statusCode).toBe(200);
  return res.json<PatientDetail>();
}

/** The edit wizard's body for what was read, with the surname and medicines of this save. */
function editOf(
  patient: PatientDetail,
  surname: string,
  medicines: { medicine_id: number; dose: number }[],
): PatientUpdateBody {
  return {
    personal: {
      firstname: patient.firstname,
      surname,
      pesel: patient.pesel,
      phone_number: patient.phone_number,
      doctor_id: patient.doctor_id,
      unit_id: patient.unit_id,
    },
    exclusion: {
      is_above_18: patient.is_above_18,
      exclusion_criteria_id: patient.exclusion_criteria_id,
      is_classified: patient.is_classified,
    },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines,
    additional_medicines: [{ name: `Lek ${surname}`, dose: 10 }],
    version: patient.version,
  };
}

const put = (id: number, body: PatientUpdateBody, token = doctor.session.token) =>
  putWithReason(t, `/api/patients/${id}`, { token, body });

describe('patient versions', () => {
  it('starts at 1, goes up by one per save and refuses a stale or missing one with 409/422', async () => {
    const { id } = await registerPatient(t, doctor);
    const loaded = await read(id);
    expect(loaded.version).toBe(1);

    const first = await put(id, editOf(loaded, 'Pierwszy', [{ medicine_id: 13, dose: 160 }]));
    expect(first.statusCode, first.body).toBe(200);
    expect((await read(id)).version).toBe(2);

    // Another screen that loaded version 1 saves later: refused, the first save stays.
    const stale = await put(
      id,
      editOf(loaded, 'Drugi', [{ medicine_id: 12, dose: 12.5 }]),
      admin.session.token,
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const after = await read(id);
    expect(after).toMatchObject({ surname: 'Pierwszy', version: 2 });
    expect(after.medicines.map((m) => m.medicine_id)).toEqual([13]);

    // Reloaded, the same change goes through.
    const retried = await put(id, editOf(after, 'Drugi', [{ medicine_id: 12, dose: 12.5 }]));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await read(id)).toMatchObject({ surname: 'Drugi', version: 3 });

    const unversioned: Partial<PatientUpdateBody> = editOf(after, 'Trzeci', []);
    delete unversioned.version;
    const missing = await putWithReason(t, `/api/patients/${id}`, {
      token: doctor.session.token,
      body: unversioned,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      status: 'validation_error',
      errors: { version: ['To pole musi być wypełnione'] },
    });
    const gone = await put(999_999, editOf(after, 'Czwarty', []));
    expect(gone.statusCode).toBe(404);
  });

  it('keeps the version out of the audit trail', async () => {
    const { id } = await registerPatient(t, doctor);
    const loaded = await read(id);
    expect((await put(id, editOf(loaded, loaded.surname, []))).statusCode).toBe(200);
    const audit = await t.request('GET', '/api/audit_trial', {
      token: admin.session.token,
      query: { patientIds: String(id), limit: '100' },
    });
    const columns = audit
      .json<{ data: { column_name: string }[] }>()
      .data.map((e) => e.column_name);
    expect(columns).not.toContain('version');
    // The save itself was recorded (the other medicines changed).
    expect(columns).toContain('name');
  });

  // On PGlite (one connection) the transactions queue; on PostgreSQL they truly race.
  it('lets exactly one of simultaneous saves of one version win, never a 500', async () => {
    {
      for (let round = 0; round < 5; round++) {
        const { id } = await registerPatient(t, doctor);
        const loaded = await read(id);
        const bodies = [
          editOf(loaded, 'Nowak', [
            { medicine_id: 13, dose: 160 },
            { medicine_id: 12, dose: 12.5 },
          ]),
          editOf(loaded, 'Kowalska', [
            { medicine_id: 12, dose: 25 },
            { medicine_id: 13, dose: 320 },
          ]),
          editOf(loaded, 'Lis', [{ medicine_id: 13, dose: 80 }]),
        ];
        const answers = await Promise.all(bodies.map((body) => put(id, body)));
        const codes = answers.map((a) => a.statusCode);
        expect(
          codes.filter((c) => c === 200),
          codes.join(),
        ).toHaveLength(1);
        expect(
          codes.filter((c) => c === 409),
          codes.join(),
        ).toHaveLength(bodies.length - 1);
        for (const answer of answers.filter((a) => a.statusCode === 409)) {
          expect(answer.json()).toEqual({ status: 'conflict' });
        }
        const winner = bodies[codes.indexOf(200)]!;
        const stored = await read(id);
        expect(stored.surname).toBe(winner.personal.surname);
        expect(stored.version).toBe(2);
        expect(
          stored.medicines
            .map((m) => [m.medicine_id, m.dose])
            .sort((a, b) => Number(a[0]) - Number(b[0])),
        ).toEqual(
          winner
            .medicines!.map((m) => [m.medicine_id, m.dose])
            .sort((a, b) => Number(a[0]) - Number(b[0])),
        );
        expect(stored.additional_medicines.map((m) => m.name)).toEqual([
          `Lek ${winner.personal.surname}`,
        ]);
      }
    }
  });
});
