import { participantKey } from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { patients } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, readyPatient, registerPatient } from '../../test/patients-fixture.js';
import { putWithReason } from '../../test/versions.js';

/** One active patient per project number and the number the wizard offers (ADR 041). */

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;

const TAKEN_PL = [
  'Ten numer projektu ma już inny uczestnik badania (wielkość liter, spacje i polskie znaki nie mają znaczenia)',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctorA = await t.readyDoctor((await t.unit()).id);
  doctorB = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

function body(doctor: ReadyDoctor, project_number: string | null) {
  return {
    personal: {
      firstname: 'Tadeusz',
      surname: 'Mazur',
      pesel: freshPesel(),
      phone_number: '601202303',
      project_number,
      doctor_id: doctor.doctor.id,
      unit_id: doctor.doctor.unit_id,
      acceptance: true,
    },
    exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [],
    additional_medicines: [],
  };
}

const offered = async (token: string) => {
  const res = await t.request('GET', '/api/patients/next_project_number', { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ project_number: string }>().project_number;
};

describe('the database key', () => {
  it('portal_participant_key reads a number as the shared participantKey does', async () => {
    for (const value of ['FDC-001', 'fdc 001', 'ŁÓDŹ-7 ~^', 'Żółć_12', 'a\u0301b', 'X\r\nY', '~']) {
      const [row] = await t.db
        .execute<{ key: string }>(sql`select portal_participant_key(${value}) as key`)
        .then((r) => (r as { rows: { key: string }[] }).rows);
      expect(row!.key, JSON.stringify(value)).toBe(participantKey(value));
    }
  });
});

describe('one active patient per project number', () => {
  it('refuses a taken number on registration and on edit, whatever its case and spaces', async () => {
    const token = doctorA.session.token;
    const stamp = Date.now();
    const first = await t.request('POST', '/api/patients', {
      token,
      body: body(doctorA, `KAR-${stamp}`),
    });
    expect(first.statusCode, first.body).toBe(200);
    for (const again of [`KAR-${stamp}`, `kar-${stamp}`, ` kar - ${stamp} `]) {
      const res = await t.request('POST', '/api/patients', { token, body: body(doctorA, again) });
      expect(res.statusCode, again).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { 'personal.project_number': TAKEN_PL },
      });
    }
    // In English for an English caller; another unit's doctor meets the same study-wide rule.
    const english = await t.request('POST', '/api/patients', {
      token: doctorB.session.token,
      body: body(doctorB, `KAR-${stamp}`),
      headers: { 'accept-language': 'en' },
    });
    expect(english.statusCode).toBe(422);
    expect(english.json()).toMatchObject({
      errors: {
        'personal.project_number': [
          'Another participant of the study already has this project number (letter case, spaces and accents do not count)',
        ],
      },
    });

    const second = await registerPatient(t, doctorA, { project_number: `KAR-${stamp}-2` });
    const detail = (await t.request('GET', `/api/patients/${second.id}`, { token })).json<{
      version: number;
      pesel: string;
    }>();
    const edit = body(doctorA, `KAR-${stamp}`);
    const res = await putWithReason(t, `/api/patients/${second.id}`, {
      token,
      body: {
        ...edit,
        personal: { ...edit.personal, pesel: detail.pesel, acceptance: undefined },
        version: detail.version,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { 'personal.project_number': TAKEN_PL },
    });
    const [kept] = await t.db
      .select({ project_number: patients.project_number })
      .from(patients)
      .where(eq(patients.id, second.id));
    expect(kept!.project_number).toBe(`KAR-${stamp}-2`);
  });

  it("frees a deleted patient's number, and refuses to restore the patient while it is taken", async () => {
    const token = admin.session.token;
    const number = `DEL-${Date.now()}`;
    const gone = await registerPatient(t, doctorA, { project_number: number });
    expect((await t.request('DELETE', `/api/patients/${gone.id}`, { token })).statusCode).toBe(200);
    const taker = await t.request('POST', '/api/patients', { token, body: body(doctorA, number) });
    expect(taker.statusCode, taker.body).toBe(200);
    const restore = await t.request('PUT', `/api/patients/restore/${gone.id}`, { token });
    expect(restore.statusCode).toBe(409);
    expect(restore.json()).toEqual({ status: 'project_number_taken' });
  });

  it('lets many patients have no number at all', async () => {
    for (const value of [null, null, '~']) {
      const res = await t.request('POST', '/api/patients', {
        token: doctorA.session.token,
        body: body(doctorA, value),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe('GET /api/patients/next_project_number', () => {
  it("offers the next of the latest number's series, skipping taken and deleted ones' numbers", async () => {
    const token = admin.session.token;
    const prefix = `S${Date.now()}-`;
    await registerPatient(t, doctorA, { project_number: `${prefix}007` });
    expect(await offered(token)).toBe(`${prefix}008`);
    // A doctor of any unit is offered the same: the numbers are the study's, not a unit's.
    expect(await offered(doctorB.session.token)).toBe(`${prefix}008`);
    // Typed by hand ahead of the series: the highest of the series counts.
    await registerPatient(t, doctorB, { project_number: `${prefix}012` });
    expect(await offered(token)).toBe(`${prefix}013`);
    // A deleted patient's number is never offered again.
    const gone = await registerPatient(t, doctorA, { project_number: `${prefix}013` });
    await t.request('DELETE', `/api/patients/${gone.id}`, { token });
    expect(await offered(token)).toBe(`${prefix}014`);
    // Beyond the width the series grows.
    await registerPatient(t, doctorA, { project_number: `${prefix}999` });
    expect(await offered(token)).toBe(`${prefix}1000`);
  });

  it('skips a number an active patient holds in another case or spelling', async () => {
    const token = admin.session.token;
    const prefix = `Q${Date.now()}-`;
    const latest = await registerPatient(t, doctorA, { project_number: `${prefix}1` });
    // Another patient's number reads like the next one (written directly: lower case).
    const other = await registerPatient(t, doctorA, { project_number: `other-${Date.now()}` });
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx
        .update(patients)
        .set({ project_number: `${prefix.toLowerCase()}2` })
        .where(eq(patients.id, other.id)),
    );
    // The latest numbered patient is now `other` (q…-2): its series goes on from it.
    expect(latest.id).toBeLessThan(other.id);
    expect(await offered(token)).toBe(`${prefix.toLowerCase()}3`);
  });

  it('answers 401 without a token and 403 to a patient', async () => {
    expect((await t.request('GET', '/api/patients/next_project_number')).statusCode).toBe(401);
    const patient = await readyPatient(t, doctorA);
    const refused = await t.request('GET', '/api/patients/next_project_number', {
      token: patient.session.token,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('is offered and taken by the registration it was offered to', async () => {
    const token = doctorA.session.token;
    const number = await offered(token);
    const res = await t.request('POST', '/api/patients', { token, body: body(doctorA, number) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await offered(token)).not.toBe(number);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('lets one of eight simultaneous registrations with one offered number keep it', async () => {
    const token = admin.session.token;
    const number = await offered(token);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request('POST', '/api/patients', { token, body: body(doctorA, number) }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.statusCode === 422))
      expect(refused.json()).toEqual({
        status: 'validation_error',
        errors: { 'personal.project_number': TAKEN_PL },
      });
    const holders = await t.db
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.project_number, number));
    expect(holders).toHaveLength(1);
  });
});
