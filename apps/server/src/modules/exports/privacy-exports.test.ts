import ExcelJS from 'exceljs';
import * as mupdf from 'mupdf';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCopy } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import { appServerUrl, createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, readyPatient, registerPatient } from '../../test/patients-fixture.js';
import type { ReadyPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { allowExport } from './identified.js';

/**
 * A patient's copy and the pseudonymised exports (ADR 054): who may ask, what the copy holds,
 * and that a pseudonymised report, ODM and FHIR export hold none of the patients' identities.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let patient: ReadyPatient;
let otherId: number;
let probeCode: string;
const identities: string[][] = [];

const person = (n: number) => ({
  firstname: `Bożydar${n}`,
  surname: `Źdźbłowski${n}`,
  pesel: freshPesel(),
  phone_number: `7${n}1234567`.slice(0, 9),
  email: `bozydar${n}.zdzblowski@przyklad.pl`,
  address_street: `Wąwozowa${n}`,
  address_building: '17',
  address_postcode: `9${n}-123`.slice(0, 6),
  address_city: `Gródek${n}`,
  project_number: `UCZ-${n}-XQ`,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  const first = person(1);
  const second = person(2);
  patient = await readyPatient(t, doctor, first);
  otherId = (await registerPatient(t, otherDoctor, second)).id;
  for (const p of [first, second]) {
    // birth date as stored (from the PESEL): 1975-11-02 in freshPesel
    identities.push([
      p.firstname,
      p.surname,
      p.pesel,
      p.phone_number,
      p.email,
      p.address_street,
      p.address_city,
      p.address_postcode,
      p.project_number,
      '1975-11-02',
    ]);
  }
  const actor = doctor.session.user.id;
  const visitId = await inTransaction(t.db, actor, async (tx) => {
    const result: unknown = await tx.execute(sql`
      insert into visits (patient_id, unit_id, date, started_at, ended_at, is_done, qt, rr, pq, qrs, qtcb, qtcfra)
      values (${patient.id}, ${doctor.doctor.unit_id}, '2026-01-05', '08:00', '08:30', true, 400, 800, 160, 95, 470, 431)
      returning id`);
    await tx.execute(
      sql`insert into patient_medicines (patient_id, medicine_id, dose) values (${patient.id}, 7, 5)`,
    );
    await tx.execute(sql`insert into messages (patient_id, sender_user_id, receiver_user_id, content)
      values (${patient.id}, ${actor}, ${patient.userId}, 'Proszę przyjść na czczo')`);
    return Number((result as { rows: { id: number }[] }).rows[0]!.id);
  });
  const probe = await insertProbe(t.db, actor, patient.id, {
    visit_id: visitId,
    alt: 72.5,
    ast: 30,
    creatine: 0.91,
    bilirubine: 1.1,
    date_of_sample: '2026-01-05',
    patient_firstname: first.firstname,
    patient_surname: first.surname,
    patient_address_street: first.address_street,
    patient_address_city: first.address_city,
    medicineIds: [7],
  });
  probeCode = probe.code;
  await inTransaction(t.db, actor, (tx) =>
    tx.execute(sql`update probe_medicines set concentration = 21 where probe_id = ${probe.id}`),
  );
  await insertProbe(t.db, otherDoctor.session.user.id, otherId, { alt: 20 });
});
afterAll(() => t?.close());

/** Every identity of the test patients found in a text (none expected). */
function identitiesIn(text: string): string[] {
  const lower = text.toLowerCase();
  return identities.flat().filter((value) => lower.includes(value.toLowerCase()));
}

describe("a patient's copy", () => {
  const url = () => `/api/patients/${patient.id}/export.json`;

  it('holds everything stored about the patient', async () => {
    // The doctor opens the card: the copy lists that read (ADR 052).
    const card = await t.request('GET', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
    });
    expect(card.statusCode, card.body).toBe(200);
    const res = await t.request('GET', url(), { token: admin.session.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const copy = res.json<PatientCopy>();
    expect(copy.format).toBe('portal-patient-copy/1');
    expect(copy.patient).toMatchObject({
      id: patient.id,
      firstname: 'Bożydar1',
      surname: 'Źdźbłowski1',
      address_city: 'Gródek1',
      email: 'bozydar1.zdzblowski@przyklad.pl',
      birth_date: '1975-11-02',
    });
    expect(copy.patient.study_subject_id).toMatch(/^S-\d+-1$/);
    expect(copy.account).toMatchObject({ login: patient.login });
    expect(JSON.stringify(copy.account)).not.toContain('password_hash');
    expect(copy.inclusion).toMatchObject({ group_id: 1 });
    expect(copy.medicines).toEqual([
      expect.objectContaining({ medicine_id: 7, name: 'amlodypina' }),
    ]);
    expect(copy.visits).toEqual([expect.objectContaining({ qt: 400, qtcb: 470 })]);
    expect(copy.samples).toEqual([
      expect.objectContaining({
        code: probeCode,
        alt: 72.5,
        medicines: [expect.objectContaining({ medicine_id: 7, concentration: 21 })],
      }),
    ]);
    expect(copy.messages).toEqual([
      expect.objectContaining({ content: 'Proszę przyjść na czczo' }),
    ]);
    // The audit entries of the patient: at least the registration's.
    expect(copy.audit.length).toBeGreaterThan(5);
    expect(copy.audit.every((entry) => entry.patient_id === patient.id)).toBe(true);
    const reads = copy.access_log as { kind: string; user: { login: string; role: string } }[];
    expect(
      reads.some(
        (read) =>
          read.kind === 'patient_card' &&
          read.user.login === doctor.session.user.login &&
          read.user.role === 'doctor',
      ),
    ).toBe(true);
    // Nothing of the other patient.
    expect(JSON.stringify(copy)).not.toContain('Bożydar2');
  });

  it('as a readable PDF in Polish', async () => {
    const res = await t.request('GET', `/api/patients/${patient.id}/export.pdf`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const document = mupdf.Document.openDocument(res.rawPayload, 'application/pdf');
    let text = '';
    for (let i = 0; i < document.countPages(); i += 1)
      text += document.loadPage(i).toStructuredText('preserve-whitespace').asText();
    expect(text).toContain('Kopia danych pacjenta');
    expect(text).toContain('Źdźbłowski1');
    expect(text).toContain('Gródek1');
    expect(text).toContain('Wizyty (z EKG)');
    expect(text).toContain('Proszę przyjść na czczo');
    expect(text).toContain('Historia zmian (audyt)');
  });

  it('is for administrators: 401, 403 for a doctor of the unit and of another, 404 unknown', async () => {
    for (const path of [url(), `/api/patients/${patient.id}/export.pdf`]) {
      expect((await t.request('GET', path)).statusCode).toBe(401);
      expect((await t.request('GET', path, { token: doctor.session.token })).statusCode).toBe(403);
      expect((await t.request('GET', path, { token: otherDoctor.session.token })).statusCode).toBe(
        403,
      );
      expect((await t.request('GET', path, { token: patient.session.token })).statusCode).toBe(403);
    }
    const missing = await t.request('GET', '/api/patients/999999/export.json', {
      token: admin.session.token,
    });
    expect(missing.statusCode).toBe(404);
  });

  it("the patient's own copy through the patient API", async () => {
    const res = await t.request('GET', '/api/me/export.json', { token: patient.session.token });
    expect(res.statusCode).toBe(200);
    const copy = res.json<PatientCopy>();
    expect(copy.patient.id).toBe(patient.id);
    expect(copy.samples).toHaveLength(1);
    expect(JSON.stringify(copy)).not.toContain('Bożydar2');
    expect((await t.request('GET', '/api/me/export.json')).statusCode).toBe(401);
    expect(
      (await t.request('GET', '/api/me/export.json', { token: admin.session.token })).statusCode,
    ).toBe(403);
  });
});

describe('pseudonymised exports', () => {
  async function report(query: string) {
    const res = await t.request('POST', `/api/generate_reports${query}`, {
      token: admin.session.token,
      body: { columns: ['patient_id', 'probe_code', 'biochemistry_results_alt'] },
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it('the report names subjects S-{unit}-{n} and samples by id, no identity', async () => {
    const rows = await report('?pseudonymised=true');
    const text = JSON.stringify(rows);
    expect(identitiesIn(text)).toEqual([]);
    expect(text).not.toContain(probeCode);
    const mine = rows.find((row) => row[2] === 72.5)!;
    expect(mine[0]).toBe(`S-${doctor.doctor.unit_id}-1`);
    expect(mine[1]).toMatch(/^sample-\d+$/);
    // Identified (the default for the report): the patient's number and the code.
    const identified = await report('');
    expect(identified.find((row) => row[2] === 72.5)).toEqual([patient.id, probeCode, 72.5]);
  });

  it('the ODM export keys subjects by the study subject id, without sample codes', async () => {
    const res = await t.request('GET', '/api/exports/odm.xml?pseudonymised=true', {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(identitiesIn(res.body)).toEqual([]);
    expect(res.body).not.toContain(probeCode);
    expect(res.body).toContain(`SubjectKey="S-${doctor.doctor.unit_id}-1"`);
    expect(res.body).toContain(`SubjectKey="S-${otherDoctor.doctor.unit_id}-1"`);
    expect(res.body).not.toContain(`SubjectKey="${patient.id}"`);
    const bad = await t.request('GET', '/api/exports/odm.xml?pseudonymised=maybe', {
      token: admin.session.token,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('the FHIR export (pseudonymised by default) holds no identity', async () => {
    const res = await t.request('GET', '/api/exports/fhir', { token: admin.session.token });
    expect(res.statusCode).toBe(200);
    expect(identitiesIn(res.body)).toEqual([]);
    expect(res.body).not.toContain(probeCode);
    const bundle = await t.request('GET', `/api/patients/${patient.id}/fhir`, {
      token: admin.session.token,
    });
    expect(bundle.statusCode).toBe(200);
    expect(identitiesIn(bundle.body)).toEqual([]);
    // The search finds what is there: an identified export holds the identities.
    const identified = await t.request('GET', '/api/exports/fhir?pseudonymised=false', {
      token: admin.session.token,
    });
    expect(identitiesIn(identified.body)).toEqual(
      expect.arrayContaining(['Bożydar1', 'Źdźbłowski2', identities[0]![2], '1975-11-02']),
    );
  });

  it('an identified export needs exports.identified and is logged', () => {
    const logged: unknown[] = [];
    const request = (role: 'admin' | 'doctor') =>
      ({
        actor: { role, userId: 5 },
        log: { info: (entry: unknown) => logged.push(entry) },
      }) as unknown as Parameters<typeof allowExport>[0];
    expect(() => allowExport(request('doctor'), 'report', false)).toThrow(
      expect.objectContaining({ statusCode: 403 }),
    );
    expect(() => allowExport(request('doctor'), 'report', true)).not.toThrow();
    expect(logged).toEqual([]);
    allowExport(request('admin'), 'odm', false);
    expect(logged).toEqual([
      { event: 'identified_export', kind: 'odm', userId: 5, patientId: undefined },
    ]);
  });
});

describe('study subject ids', () => {
  it('count per unit and stay when the patient moves to another unit', async () => {
    const second = await registerPatient(t, doctor);
    const subjectOf = async (id: number) => {
      const res = await t.request('GET', `/api/patients/${id}/export.json`, {
        token: admin.session.token,
      });
      return res.json<PatientCopy>().patient.study_subject_id;
    };
    expect(await subjectOf(second.id)).toBe(`S-${doctor.doctor.unit_id}-2`);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.execute(sql`update patients set unit_id = ${otherDoctor.doctor.unit_id},
        doctor_id = ${otherDoctor.doctor.id} where id = ${second.id}`),
    );
    expect(await subjectOf(second.id)).toBe(`S-${doctor.doctor.unit_id}-2`);
    // The next one of the other unit is its second, whoever moved in.
    const third = await registerPatient(t, otherDoctor);
    expect(await subjectOf(third.id)).toBe(`S-${otherDoctor.doctor.unit_id}-2`);
    // Never changed, even by the app's own role.
    await expect(
      inTransaction(t.db, admin.session.user.id, (tx) =>
        tx.execute(sql`update study_subjects set n = 99 where patient_id = ${third.id}`),
      ),
    ).rejects.toThrow();
  });

  it.skipIf(!appServerUrl)(
    'registrations at once in one unit get distinct numbers (PostgreSQL)',
    async () => {
      const unit = await t.unit();
      const unitDoctor = await t.readyDoctor(unit.id);
      const ids = await Promise.all(
        Array.from({ length: 8 }, () => registerPatient(t, unitDoctor).then((p) => p.id)),
      );
      const result: unknown = await t.db.execute(
        sql`select n from study_subjects where unit_id = ${unit.id} order by n`,
      );
      expect((result as { rows: { n: number }[] }).rows.map((r) => Number(r.n))).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
      expect(new Set(ids).size).toBe(8);
    },
  );
});
