import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPesel, validationMessage } from '@portal/shared';
import type { ImportBatch } from '@portal/shared';
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import {
  importBatches,
  patients,
  probeMedicines,
  probes,
  unmatchedResults,
  users,
} from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { columnNames } from './columns.js';
import { csvOf, postImport } from '../../test/import-fixture.js';
import { UNUSABLE_PASSWORD_HASH } from './patient-import.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let seed = 500;

const PATIENT_COLUMNS = columnNames('patient_data');
const RESULT_COLUMNS = columnNames('results');

/** `n` distinct valid PESELs, none used elsewhere in this file. */
function pesels(n: number): string[] {
  seed += 1;
  return Array.from({ length: n }, (_, i) =>
    buildPesel(
      {
        year: 1940 + (Math.floor(i / 336) % 50),
        month: 1 + (Math.floor(i / 28) % 12),
        day: 1 + (i % 28),
      },
      seed * 10 + 7,
      i % 2 ? 'M' : 'K',
    ),
  );
}

function patientRows(n: number, overrides: Record<string, unknown> = {}) {
  return pesels(n).map((pesel, i): Record<string, unknown> & { pesel: string } => ({
    firstname: 'Anna',
    surname: `Importowana${i}`,
    pesel,
    phone_number: '601202303',
    unit_id: doctor.doctor.unit_id,
    doctor_id: doctor.doctor.id,
    group_id: 1,
    subgroup_id: 1,
    dose: 5,
    is_above_18: 1,
    is_classified: 1,
    ...overrides,
  }));
}

const importPatients = (rows: Record<string, unknown>[], name = 'pacjenci.csv') =>
  postImport(t, admin.session.token, 'patient_data', [
    { name, content: csvOf(PATIENT_COLUMNS, rows) },
  ]);
const errorsOf = (res: { json<T>(): T }) => res.json<{ errors: string[] }>().errors;

async function patientCount(list: string[]) {
  const [row] = await t.db
    .select({ n: count() })
    .from(patients)
    .where(inArray(patients.pesel, list));
  return row!.n;
}
async function batchCount() {
  const [row] = await t.db.select({ n: count() }).from(importBatches);
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('POST /api/data_import/patient_data', () => {
  it('registers every row as a patient of the batch, with an account that works once printed', async () => {
    const rows = patientRows(3);
    const res = await importPatients(rows);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ status: string; batch_id: number; imported: { patients: number } }>();
    expect(body).toMatchObject({ status: 'success', imported: { patients: 3 } });
    const stored = await t.db
      .select({ id: patients.id, batch: patients.import_batch_id, hash: users.password_hash })
      .from(patients)
      .innerJoin(users, eq(users.id, patients.user_id))
      .where(
        inArray(
          patients.pesel,
          rows.map((r) => r.pesel),
        ),
      );
    expect(stored).toHaveLength(3);
    expect(stored.every((s) => s.batch === body.batch_id)).toBe(true);
    expect(stored.every((s) => s.hash === UNUSABLE_PASSWORD_HASH)).toBe(true);
    // The first printout sets a real password; the account signs in with it.
    const printed = await t.request('GET', `/api/patients/print_password/${stored[0]!.id}`, {
      token: admin.session.token,
    });
    expect(printed.statusCode).toBe(200);
    const { login, password } = printed.json<{ login: string; password: string }>();
    const session = await t.login('patient', login, password);
    expect(session.token).toBeTruthy();
  });

  it('all or nothing: 10,000 rows with one bad row at 9,999 answer one error and write nothing', async () => {
    const rows = patientRows(10_000);
    // Row 9,999 of the file is data row 9,998 (the header is row 1).
    rows[9_997]!.phone_number = '12';
    const before = await batchCount();
    const res = await importPatients(rows, 'duzy.csv');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'error',
      errors: [
        `duzy.csv, wiersz 9999, kolumna phone_number: ${validationMessage('invalid_phone')}`,
      ],
    });
    expect(await patientCount(rows.map((r) => r.pesel))).toBe(0);
    expect(await batchCount()).toBe(before);
  }, 60_000);

  it('refuses a PESEL repeated in the file or already in the database', async () => {
    const existing = await registerPatient(t, doctor);
    const [row] = await t.db
      .select({ pesel: patients.pesel })
      .from(patients)
      .where(eq(patients.id, existing.id));
    const rows = patientRows(3);
    rows[2]!.pesel = rows[0]!.pesel;
    rows[1]!.pesel = row!.pesel;
    const res = await importPatients(rows);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res).sort()).toEqual(
      [
        `pacjenci.csv, wiersz 4, kolumna pesel: ${validationMessage('pesel_taken')}`,
        `pacjenci.csv, wiersz 3, kolumna pesel: ${validationMessage('pesel_taken')}`,
      ].sort(),
    );
    expect(await patientCount([rows[0]!.pesel])).toBe(0);
  });

  it('applies the registration rules to every row and lists every error', async () => {
    const rows = patientRows(6);
    rows[0]!.doctor_id = otherDoctor.doctor.id;
    rows[1]!.pesel = '12345678901';
    rows[2]!.dose = 7;
    rows[3]!.is_above_18 = 0;
    rows[4]!.subgroup_id = '';
    rows[5]!.firstname = '';
    const res = await importPatients(rows);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toEqual([
      `pacjenci.csv, wiersz 2, kolumna doctor_id: ${validationMessage('doctor_not_in_unit')}`,
      `pacjenci.csv, wiersz 3, kolumna pesel: ${validationMessage('invalid_pesel')}`,
      `pacjenci.csv, wiersz 4, kolumna dose: ${validationMessage('invalid_dose')}`,
      `pacjenci.csv, wiersz 5, kolumna is_classified: ${validationMessage('not_qualifiable')}`,
      `pacjenci.csv, wiersz 6, kolumna subgroup_id: ${validationMessage('select_inclusion')}`,
      `pacjenci.csv, wiersz 7, kolumna firstname: ${validationMessage('required')}`,
    ]);
  });

  it('stores medicines given as medicine_id:dose;… and refuses an unknown medicine', async () => {
    const ok = patientRows(1, { medicines: '1:10;2' });
    expect((await importPatients(ok)).statusCode).toBe(200);
    const bad = await importPatients(patientRows(1, { medicines: '1:10;99999' }));
    expect(errorsOf(bad)).toEqual([
      `pacjenci.csv, wiersz 2, kolumna medicines: ${validationMessage('invalid')}`,
    ]);
  });

  it('names a missing column and refuses a file type it cannot read', async () => {
    const res = await postImport(t, admin.session.token, 'patient_data', [
      { name: 'a.csv', content: 'firstname,surname\nJan,Nowak' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toContain(
      `a.csv, wiersz 1, kolumna pesel: ${validationMessage('required')}`,
    );
    const exe = await postImport(t, admin.session.token, 'patient_data', [
      { name: 'a.exe', content: 'MZ' },
    ]);
    expect(exe.statusCode).toBe(422);
    expect(errorsOf(exe)).toEqual(['a.exe: Nieprawidłowy rodzaj pliku']);
  });

  it('needs at least one file', async () => {
    const res = await postImport(t, admin.session.token, 'patient_data', []);
    expect(res.statusCode).toBe(422);
  });

  it('refuses a project number carrying a CR and an HL7 segment, in csv and xlsx (ADR 037)', async () => {
    const injected = 'X\rOBX|1|NM|ALT||999';
    const message = validationMessage('single_line');
    const csvRows = patientRows(2);
    csvRows[1]!.project_number = injected;
    const csv = await importPatients(csvRows);
    expect(csv.statusCode, csv.body).toBe(422);
    expect(errorsOf(csv)).toEqual([`pacjenci.csv, wiersz 3, kolumna project_number: ${message}`]);

    const xlsxRows = patientRows(2);
    xlsxRows[0]!.project_number = injected;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Dane');
    sheet.addRow([...PATIENT_COLUMNS]);
    for (const row of xlsxRows) sheet.addRow(PATIENT_COLUMNS.map((c) => row[c] ?? null));
    const xlsx = await postImport(t, admin.session.token, 'patient_data', [
      { name: 'pacjenci.xlsx', content: Buffer.from(await workbook.xlsx.writeBuffer()) },
    ]);
    expect(xlsx.statusCode, xlsx.body).toBe(422);
    expect(errorsOf(xlsx)).toEqual([`pacjenci.xlsx, wiersz 2, kolumna project_number: ${message}`]);
    expect(await patientCount([...csvRows, ...xlsxRows].map((r) => r.pesel))).toBe(0);

    // A line break around the value is a cell's edge, not part of it: trimmed and taken.
    const edge = patientRows(1, { project_number: 'FDC-2026\r\n' });
    expect((await importPatients(edge)).statusCode).toBe(200);
  });

  it('refuses a project number taken in the file or by an active patient (ADR 041)', async () => {
    const message = validationMessage('project_number_taken');
    const stamp = Date.now();
    const held = await registerPatient(t, doctor, { project_number: `IMP-${stamp}-1` });
    expect(held.id).toBeGreaterThan(0);
    const rows = patientRows(3);
    rows[0]!.project_number = `imp-${stamp}-1`; // the registered patient's, in another case
    rows[1]!.project_number = `IMP-${stamp}-2`;
    rows[2]!.project_number = ` imp-${stamp}-2 `; // the row above's, in another case
    const res = await importPatients(rows);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorsOf(res).sort()).toEqual(
      [
        `pacjenci.csv, wiersz 4, kolumna project_number: ${message}`,
        `pacjenci.csv, wiersz 2, kolumna project_number: ${message}`,
      ].sort(),
    );
    expect(await patientCount(rows.map((r) => r.pesel))).toBe(0);
  });
});

describe('POST /api/data_import/results', () => {
  it('attaches results to samples by code and files unknown codes as unmatched', async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      medicineIds: [7],
    });
    const res = await postImport(t, admin.session.token, 'results', [
      {
        name: 'wyniki.csv',
        content: csvOf(RESULT_COLUMNS, [
          { probe_code: probe.code, analyte: 'alt', value: '41,5', unit: 'U/l', lab_range: '0-40' },
          { probe_code: probe.code, analyte: '7', value: 120, unit: 'ng/ml', hours: 12 },
          { probe_code: 'NIEMA-1', analyte: 'ast', value: 20, date_of_analysis: '02.11.2026' },
        ]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ batch_id: number; imported: Record<string, number> }>();
    expect(body.imported).toEqual({ results: 2, unmatched: 1 });
    const [row] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(row).toMatchObject({ alt: 41.5, results_source: 'import', status: 'received' });
    expect(row!.lab_ranges).toEqual({ alt: { text: '0-40', min: 0, max: 40, unit: null } });
    const unmatched = await t.db
      .select()
      .from(unmatchedResults)
      .where(eq(unmatchedResults.import_batch_id, body.batch_id));
    expect(unmatched).toMatchObject([
      { probe_code: 'NIEMA-1', analyte: 'ast', value: 20, reason: 'no_probe', status: 'open' },
    ]);
  });

  it('checks values like the connector and refuses a medicine the sample is not tested for', async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      medicineIds: [7],
    });
    const res = await postImport(t, admin.session.token, 'results', [
      {
        name: 'w.csv',
        content: csvOf(RESULT_COLUMNS, [
          { probe_code: probe.code, analyte: 'alt', value: -1 },
          { probe_code: probe.code, analyte: 'creatine', value: 1e9 },
          { probe_code: probe.code, analyte: 'ast', value: 'dużo' },
          { probe_code: probe.code, analyte: 'bilirubine', value: 1, unit: 'kg' },
          { probe_code: probe.code, analyte: 'glukoza', value: 1 },
          { probe_code: probe.code, analyte: 'ast', value: 1, date_of_analysis: '01.01.2999' },
          { probe_code: probe.code, analyte: '8', value: 1 },
        ]),
      },
    ]);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toEqual([
      `w.csv, wiersz 2, kolumna value: ${validationMessage('negative_value')}`,
      `w.csv, wiersz 3, kolumna value: ${validationMessage('implausible_value')}`,
      `w.csv, wiersz 4, kolumna value: ${validationMessage('invalid_number')}`,
      `w.csv, wiersz 5, kolumna unit: ${validationMessage('invalid')}`,
      `w.csv, wiersz 6, kolumna analyte: ${validationMessage('invalid')}`,
      `w.csv, wiersz 7, kolumna date_of_analysis: ${validationMessage('future_date')}`,
      `w.csv, wiersz 8, kolumna analyte: ${validationMessage('invalid')}`,
    ]);
    const [row] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(row!.results_source).toBeNull();
  });
});

/** An HL7 v2 XML ORU^R01 for one sample: `[OBX-3, OBX-5, OBX-6]` each, OBX-14 on the first. */
function hl7Xml(probeCode: string, observations: [string, string, string][], analysed: string) {
  const obx = observations
    .map(
      ([code, value, unit], i) => `
      <ORU_R01.OBSERVATION><OBX><OBX.1>${i + 1}</OBX.1><OBX.2>NM</OBX.2><OBX.3><CE.1>${code}</CE.1></OBX.3>
        <OBX.5>${value}</OBX.5><OBX.6><CE.1>${unit}</CE.1></OBX.6><OBX.11>F</OBX.11>${
          i === 0 ? `<OBX.14><TS.1>${analysed}</TS.1></OBX.14>` : ''
        }</OBX></ORU_R01.OBSERVATION>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ORU_R01 xmlns="urn:hl7-org:v2xml">
  <MSH><MSH.1>|</MSH.1><MSH.2>^~\\&amp;</MSH.2><MSH.9><MSG.1>ORU</MSG.1><MSG.2>R01</MSG.2></MSH.9><MSH.10>X-1</MSH.10></MSH>
  <ORU_R01.PATIENT_RESULT><ORU_R01.ORDER_OBSERVATION>
    <OBR><OBR.1>1</OBR.1><OBR.3><EI.1>${probeCode}</EI.1></OBR.3></OBR>${obx}
  </ORU_R01.ORDER_OBSERVATION></ORU_R01.PATIENT_RESULT>
</ORU_R01>`;
}

describe('POST /api/data_import/results with HL7 v2 XML', () => {
  it("names drugs by the connector's codes (CAS number or INN): the concentration lands on the sample with its hours", async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      medicineIds: [7],
    });
    const other = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      medicineIds: [7],
    });
    const res = await postImport(t, admin.session.token, 'results', [
      {
        name: 'wyniki-hl7.xml',
        content: hl7Xml(
          probe.code,
          [
            ['AMLODIPINE', '14,5', 'ng/ml'],
            ['ALT', '33', 'U/L'],
            ['HSLD', '6', 'h'],
          ],
          '20261103',
        ),
      },
      // 7 = amlodipine, CAS 111470-99-6 (migration 0003).
      {
        name: 'cas.xml',
        content: hl7Xml(other.code, [['111470-99-6', '9', 'ng/ml']], '20261102'),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ imported: Record<string, number> }>().imported).toEqual({
      results: 3,
      unmatched: 0,
    });
    const [row] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(row).toMatchObject({
      alt: 33,
      concentration_hours: 6,
      concentration_date_of_analysis: '2026-11-03',
      results_source: 'import',
    });
    const concentrations = await t.db
      .select({ probe_id: probeMedicines.probe_id, concentration: probeMedicines.concentration })
      .from(probeMedicines)
      .where(inArray(probeMedicines.probe_id, [probe.id, other.id]))
      .orderBy(probeMedicines.probe_id);
    expect(concentrations).toEqual([
      { probe_id: probe.id, concentration: 14.5 },
      { probe_id: other.id, concentration: 9 },
    ]);
  });

  it('still refuses a drug code no medicine has', async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      medicineIds: [7],
    });
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'w.xml', content: hl7Xml(probe.code, [['GLUKOZA', '5', 'ng/ml']], '20261103') },
    ]);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toEqual([
      `w.xml, wiersz 6, kolumna analyte: ${validationMessage('invalid')}`,
    ]);
  });
});

describe('POST /api/data_import/results with the results layout as XML', () => {
  const example = readFileSync(
    new URL('../../../../../docs/examples/import-wyniki.xml', import.meta.url),
    'utf8',
  );

  it('imports docs/examples/import-wyniki.xml: each <wynik> a result, unknown codes unmatched', async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'import-wyniki.xml', content: example.replaceAll('P000001-1', probe.code) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ imported: Record<string, number> }>().imported).toEqual({
      results: 4,
      unmatched: 1,
    });
    const [row] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(row).toMatchObject({ alt: 31, ast: 27.5, creatine: 0.9, bilirubine: 0.7 });
    expect(row!.lab_ranges).toMatchObject({ alt: { text: '0-40', min: 0, max: 40 } });
  });

  it("names a bad cell by its <wynik>'s line and element, and is no patient file", async () => {
    const bad = example.replace('<value>31</value>', '<value>-31</value>');
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'w.xml', content: bad },
    ]);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toEqual([
      `w.xml, wiersz 10, kolumna value: ${validationMessage('negative_value')}`,
    ]);
    const patientsRes = await postImport(t, admin.session.token, 'patient_data', [
      { name: 'w.xml', content: example },
    ]);
    expect(patientsRes.statusCode).toBe(422);
    expect(errorsOf(patientsRes)).toEqual(['w.xml: Nieprawidłowy rodzaj pliku']);
  });
});

describe('flush and restore', () => {
  it('soft-deletes what the batches wrote, puts old results back, and a restore undoes it', async () => {
    const rows = patientRows(2);
    const imported = await importPatients(rows);
    const batchId = imported.json<{ batch_id: number }>().batch_id;
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, { alt: 10 });
    const results = await postImport(t, admin.session.token, 'results', [
      {
        name: 'w.csv',
        content: csvOf(RESULT_COLUMNS, [{ probe_code: probe.code, analyte: 'alt', value: 55 }]),
      },
    ]);
    const resultsBatch = results.json<{ batch_id: number }>().batch_id;

    const flush = await t.request('POST', '/api/data_import/flush', { token: admin.session.token });
    expect(flush.statusCode, flush.body).toBe(200);
    expect(flush.json()).toMatchObject({ status: 'success', batch_id: null });
    expect(
      flush.json<{ imported: { patients: number } }>().imported.patients,
    ).toBeGreaterThanOrEqual(2);
    const active = await t.db
      .select({ n: count() })
      .from(patients)
      .where(
        and(
          inArray(
            patients.pesel,
            rows.map((r) => r.pesel),
          ),
          isNull(patients.deleted_at),
        ),
      );
    expect(active[0]!.n).toBe(0);
    const [afterFlush] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(afterFlush!.alt).toBe(10);

    const list = await t.request('GET', '/api/data_import/batches', { token: admin.session.token });
    const batches = list.json<{ data: ImportBatch[] }>().data;
    expect(batches.find((b) => b.id === batchId)).toMatchObject({
      mode: 'patient_data',
      files: [{ name: 'pacjenci.csv' }],
      counts: { patients: 2 },
      created_by: admin.login,
    });
    expect(batches.every((b) => b.flushed_at !== null)).toBe(true);

    const restore = (id: number) =>
      t.request('PUT', `/api/data_import/batches/${id}/restore`, { token: admin.session.token });
    expect((await restore(batchId)).statusCode).toBe(200);
    expect((await restore(resultsBatch)).statusCode).toBe(200);
    expect(await patientCount(rows.map((r) => r.pesel))).toBe(2);
    const back = await t.db
      .select({ n: count() })
      .from(patients)
      .where(
        and(
          inArray(
            patients.pesel,
            rows.map((r) => r.pesel),
          ),
          isNull(patients.deleted_at),
        ),
      );
    expect(back[0]!.n).toBe(2);
    const [restored] = await t.db.select().from(probes).where(eq(probes.id, probe.id));
    expect(restored!.alt).toBe(55);
    const again = await restore(batchId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: 'not_flushed' });
    expect((await restore(2_000_000)).statusCode).toBe(404);
  });
});

describe('GET /api/data_import/templates/:mode.xlsx', () => {
  it.each(['patient_data', 'results'] as const)(
    '%s: field names, examples, a Polish sheet',
    async (mode) => {
      const res = await t.request('GET', `/api/data_import/templates/${mode}.xlsx`, {
        token: admin.session.token,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
      const [data, help] = workbook.worksheets;
      expect((data!.getRow(1).values as unknown[]).slice(1)).toEqual(columnNames(mode));
      expect(data!.rowCount).toBeGreaterThan(1);
      expect(help!.getCell('A2').value).toBe(columnNames(mode)[0]);
      expect(help!.getCell('B2').text).toMatch(/[a-ząęółśżźćń]/);
      const notes = help!
        .getColumn(2)
        .values.filter((v): v is string => typeof v === 'string' && v.includes('<wyniki>'));
      expect(notes).toHaveLength(mode === 'results' ? 1 : 0);
    },
  );

  it('an unknown template is a validation error; doctors are refused', async () => {
    const res = await t.request('GET', '/api/data_import/templates/x.xlsx', {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(422);
    const doc = await t.request('GET', '/api/data_import/templates/results.xlsx', {
      token: doctor.session.token,
    });
    expect(doc.statusCode).toBe(403);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('two imports at once of the same PESEL: one succeeds, the other writes nothing', async () => {
    const rows = patientRows(50);
    const before = await batchCount();
    const answers = await Promise.all([
      importPatients(rows, 'a.csv'),
      importPatients(rows, 'b.csv'),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 422]);
    expect(await patientCount(rows.map((r) => r.pesel))).toBe(50);
    expect(await batchCount()).toBe(before + 1);
  });
});
