import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { looksLikeFormula, reportCell, writeReport } from './report-service.js';
import type { ReportSource } from './report-service.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let patientId: number;
let groupNr: number;
const hostileCode = '=HYPERLINK("http://zly.example","kliknij")';
let first: { id: number; code: string };
let second: { id: number; code: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  const patient = await registerPatient(t, doctor);
  patientId = patient.id;
  const actor = doctor.session.user.id;
  const visitId = await inTransaction(t.db, actor, async (tx) => {
    const result: unknown = await tx.execute(sql`
      insert into visits (patient_id, unit_id, date, started_at, ended_at, is_done, qt, rr, pq, qrs, qtcb, qtcfra)
      values (${patientId}, ${doctor.doctor.unit_id}, '2026-01-05', '08:00', '08:30', true, 400, 800, 160, 95, 447, 431)
      returning id`);
    return Number((result as { rows: { id: number }[] }).rows[0]!.id);
  });
  // Medicines 7 and 3, inserted out of order: the report lists them by id (3, then 7).
  first = await insertProbe(t.db, actor, patientId, {
    code: hostileCode,
    visit_id: visitId,
    alt: 42.5,
    ast: 30,
    creatine: 0.91,
    bilirubine: 1.1,
    type_of_material: 'capillary',
    medicineIds: [7, 3],
  });
  await inTransaction(t.db, actor, async (tx) => {
    await tx.execute(
      sql`update probe_medicines set concentration = case medicine_id when 3 then 12.5 else 7.25 end where probe_id = ${first.id}`,
    );
  });
  second = await insertProbe(t.db, actor, patientId, { code: '@SUM(A1)' });
  const groups: unknown = await t.db.execute(
    sql`select g.nr from patient_inclusions pi join inclusion_criteria_groups g on g.id = pi.group_id where pi.patient_id = ${patientId}`,
  );
  groupNr = Number((groups as { rows: { nr: number }[] }).rows[0]!.nr);
});
afterAll(() => t?.close());

const generate = (columns: unknown, token = admin.session.token, lang?: string) =>
  t.request('POST', '/api/generate_reports', {
    token,
    body: { columns },
    ...(lang ? { headers: { 'accept-language': lang } } : {}),
  });

async function readBack(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  return workbook.worksheets[0]!;
}

describe('POST /api/generate_reports', () => {
  it('streams data.xlsx: headers in the fixed order, numbers as numbers, formula-like text as text', async () => {
    // Sent out of order: the file keeps the fixed order (docs/product-rules.md "Fixed orders and words").
    const res = await generate([...REPORT_COLUMNS].reverse());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="data.xlsx"');
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheet = await readBack(res.rawPayload);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Numer pacjenta',
      'Numer próbki',
      'Rodzaj materiału',
      'Numer grupy',
      'ALT',
      'AST',
      'Kreatynina',
      'Bilirubina',
      'Lek 1 (stężenie)',
      'Lek 2 (stężenie)',
      'Lek 3 (stężenie)',
      'QRS',
      'QTcB',
    ]);
    expect(sheet.actualRowCount).toBe(3);
    const row = sheet.getRow(2);
    expect(row.values).toEqual([
      undefined,
      patientId,
      hostileCode,
      'włośniczkowa',
      groupNr,
      42.5,
      30,
      0.91,
      1.1,
      12.5,
      7.25,
      undefined,
      95,
      447,
    ]);
    const code = row.getCell(2);
    expect(code.type).toBe(ExcelJS.ValueType.String);
    expect(code.formula).toBeUndefined();
    expect(code.numFmt).toBe('@');
    expect(row.getCell(5).type).toBe(ExcelJS.ValueType.Number);
    const other = sheet.getRow(3);
    expect(other.getCell(2).value).toBe('@SUM(A1)');
    expect(other.getCell(2).type).toBe(ExcelJS.ValueType.String);
    // No visit, no results: empty cells, not zeros.
    expect(other.getCell(5).value).toBeNull();
    expect(other.getCell(13).value).toBeNull();
  });

  it('writes only the chosen columns', async () => {
    const res = await generate(['visit_results_qtcb', 'probe_code']);
    expect(res.statusCode).toBe(200);
    const sheet = await readBack(res.rawPayload);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Numer próbki', 'QTcB']);
    expect(sheet.getRow(2).values).toEqual([undefined, hostileCode, 447]);
    expect(sheet.getRow(3).values).toEqual([undefined, second.code]);
  });

  it('refuses no column (empty), one column (not_valid) and unknown or repeated ones', async () => {
    const none = await generate([]);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({
      status: 'validation_error',
      errors: { columns: ['Nie wybrano żadnej kolumny raportu'] },
    });
    const one = await generate(['patient_id']);
    expect(one.statusCode).toBe(422);
    expect(one.json()).toEqual({
      status: 'validation_error',
      errors: { columns: ['Raport wymaga co najmniej dwóch kolumn'] },
    });
    const english = await generate(['patient_id'], admin.session.token, 'en');
    expect(english.json<{ errors: { columns: string[] } }>().errors.columns).toEqual([
      'A report needs at least two columns',
    ]);
    expect((await generate(['patient_id', 'pesel'])).statusCode).toBe(422);
    expect((await generate(['patient_id', 'patient_id'])).statusCode).toBe(422);
    expect((await generate('patient_id,probe_code')).statusCode).toBe(422);
  });

  it('is for administrators only', async () => {
    expect((await generate(['patient_id', 'probe_code'], doctor.session.token)).statusCode).toBe(
      403,
    );
    const anonymous = await t.request('POST', '/api/generate_reports', {
      body: { columns: ['patient_id', 'probe_code'] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('writeReport', () => {
  const source = (id: number, code: string): ReportSource => ({
    id,
    code,
    type_of_material: 'venous',
    patient_id: 1,
    group_nr: 2,
    alt: null,
    ast: null,
    creatine: null,
    bilirubine: null,
    qrs: null,
    qtcb: null,
    concentrations: null,
  });

  it('knows formula-like text', () => {
    for (const text of ['=1+1', '+48', '-2', '@SUM(A1)', '\tx', '\rx'])
      expect(looksLikeFormula(text)).toBe(true);
    for (const text of ['A=1', 'KZP1', '']) expect(looksLikeFormula(text)).toBe(false);
    expect(reportCell(source(1, 'x'), 'type_of_probe')).toBe('żylna');
  });

  it('rejects without finishing the file when the rows fail half way', async () => {
    async function* failing() {
      await Promise.resolve();
      yield [source(1, 'A'), source(2, 'B')];
      throw new Error('database gone');
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await expect(writeReport(failing(), ['patient_id', 'probe_code'], out)).rejects.toThrow(
      'database gone',
    );
    // What was sent is not a workbook: the zip's central directory is never written.
    await expect(
      new ExcelJS.Workbook().xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer),
    ).rejects.toThrow();
  });

  it('stops when the client goes away instead of waiting for ever', async () => {
    async function* many() {
      await Promise.resolve();
      for (let page = 0; page < 1000; page++)
        yield Array.from({ length: 100 }, (_, i) => source(page * 100 + i + 1, `KOD-${i}`));
    }
    // A reader that never reads, then disconnects.
    const out = new Writable({ highWaterMark: 1024, write: () => undefined });
    setTimeout(() => out.destroy(), 50);
    await expect(writeReport(many(), ['patient_id', 'probe_code'], out)).rejects.toThrow(/closed/);
  });
});
