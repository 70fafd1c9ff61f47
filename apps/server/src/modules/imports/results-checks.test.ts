import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationMessage } from '@portal/shared';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { inTransaction } from '../../db/client.js';
import {
  auditEntries,
  importBatches,
  patients,
  probeMedicines,
  probes,
  safetyAlerts,
  unmatchedResults,
} from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { csvOf, postImport } from '../../test/import-fixture.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { FLUSH_DISCARD_REASON } from './batches.js';
import { columnNames } from './columns.js';

/*
 * The results import's patient check (sex and birth date, as the HL7 connector does) and a
 * flush and restore that put every field a results batch changed back (migration 0018).
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

const COLUMNS = [...columnNames('results'), 'patient_sex', 'patient_birth_date'];
const INVALID = validationMessage('invalid');

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

/** A sample of a new patient of the given sex (born 1975-11-02, freshPesel's date). */
async function sampleOf(sex: 'M' | 'K', overrides: Parameters<typeof insertProbe>[3] = {}) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel(sex) });
  const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, overrides);
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  expect(row!.birth_date).toBe('1975-11-02');
  return { ...probe, patientId: patient.id };
}

const probeRow = async (id: number) =>
  (await t.db.select().from(probes).where(eq(probes.id, id)))[0]!;
const unmatchedOf = (batchId: number) =>
  t.db
    .select()
    .from(unmatchedResults)
    .where(eq(unmatchedResults.import_batch_id, batchId))
    .orderBy(unmatchedResults.id);
const batchCount = async () => (await t.db.select({ n: count() }).from(importBatches))[0]!.n;

async function xlsxOf(columns: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('dane');
  sheet.addRow(columns);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** An HL7 v2 XML ORU^R01: one PATIENT_RESULT per patient, each with its samples' ALT. */
function hl7Xml(patientsOf: { sex: string; birth: string; alt: [string, number][] }[]): string {
  const obx = (value: number) => `
      <ORU_R01.OBSERVATION>
        <OBX><OBX.1>1</OBX.1><OBX.2>NM</OBX.2><OBX.3><CE.1>ALT</CE.1></OBX.3>
          <OBX.5>${value}</OBX.5><OBX.6><CE.1>U/L</CE.1></OBX.6><OBX.11>F</OBX.11></OBX>
      </ORU_R01.OBSERVATION>`;
  const results = patientsOf.map(
    (p) => `
  <ORU_R01.PATIENT_RESULT>
    <ORU_R01.PATIENT><PID><PID.7><TS.1>${p.birth}</TS.1></PID.7><PID.8>${p.sex}</PID.8></PID></ORU_R01.PATIENT>${p.alt
      .map(
        ([code, value]) => `
    <ORU_R01.ORDER_OBSERVATION>
      <OBR><OBR.1>1</OBR.1><OBR.3><EI.1>${code}</EI.1></OBR.3><OBR.7><TS.1>20261103</TS.1></OBR.7></OBR>${obx(value)}
    </ORU_R01.ORDER_OBSERVATION>`,
      )
      .join('')}
  </ORU_R01.PATIENT_RESULT>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<ORU_R01 xmlns="urn:hl7-org:v2xml">
  <MSH><MSH.1>|</MSH.1><MSH.2>^~\\&amp;</MSH.2><MSH.9><MSG.1>ORU</MSG.1><MSG.2>R01</MSG.2></MSH.9>
    <MSH.10>MSG-1</MSH.10><MSH.12><VID.1>2.5</VID.1></MSH.12></MSH>${results.join('')}
</ORU_R01>`;
}

describe('the results import compares sex and birth date like the HL7 connector', () => {
  it('xlsx: attaches a result whose patient agrees, files the others as unmatched with the reason', async () => {
    const agrees = await sampleOf('M');
    const wrongSex = await sampleOf('M');
    const wrongBirth = await sampleOf('K');
    const blank = await sampleOf('K');
    const file = await xlsxOf(COLUMNS, [
      // Sex case-insensitive, birth date as a date cell.
      [agrees.code, 'alt', 20, 'U/l', '', '', '', 'm', new Date(Date.UTC(1975, 10, 2))],
      // F is HL7's letter for K.
      [wrongSex.code, 'alt', 21, '', '', '', '', 'f', '1975-11-02'],
      [wrongBirth.code, 'alt', 22, '', '', '', '', 'K', '03.11.1975'],
      // Nothing sent: nothing compared.
      [blank.code, 'alt', 23, '', '', '', '', '', ''],
    ]);
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'wyniki.xlsx', content: file },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ batch_id: number; imported: Record<string, number> }>();
    expect(body.imported).toEqual({ results: 2, unmatched: 2 });
    expect((await probeRow(agrees.id)).alt).toBe(20);
    expect((await probeRow(blank.id)).alt).toBe(23);
    for (const probe of [wrongSex, wrongBirth]) {
      expect(await probeRow(probe.id)).toMatchObject({ alt: null, results_source: null });
    }
    const unmatched = await unmatchedOf(body.batch_id);
    expect(unmatched).toMatchObject([
      {
        probe_code: wrongSex.code,
        analyte: 'alt',
        value: 21,
        reason: 'sex_mismatch',
        status: 'open',
        patient_sex: 'K',
        patient_birth_date: '1975-11-02',
        probe_id: null,
      },
      {
        probe_code: wrongBirth.code,
        value: 22,
        reason: 'birth_date_mismatch',
        status: 'open',
        patient_sex: 'K',
        patient_birth_date: '1975-11-03',
      },
    ]);
    expect(unmatched[0]!.raw).toMatchObject({
      file: 'wyniki.xlsx',
      row: 3,
      values: { probe_code: wrongSex.code, patient_sex: 'f' },
    });
  });

  it('HL7 v2 XML: PID-8 and PID-7 of each patient are compared with the sample’s patient', async () => {
    const woman = await sampleOf('K');
    const man = await sampleOf('M');
    const older = await sampleOf('M');
    const xml = hl7Xml([
      { sex: 'F', birth: '19751102', alt: [[woman.code, 30]] },
      // This file says the man's sample belongs to a woman.
      { sex: 'F', birth: '19751102', alt: [[man.code, 31]] },
      { sex: 'M', birth: '19501102', alt: [[older.code, 32]] },
    ]);
    const res = await postImport(t, admin.session.token, 'results', [
      { name: 'wyniki.xml', content: xml },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ batch_id: number; imported: Record<string, number> }>();
    expect(body.imported).toEqual({ results: 1, unmatched: 2 });
    expect(await probeRow(woman.id)).toMatchObject({ alt: 30, results_source: 'import' });
    expect((await probeRow(man.id)).alt).toBeNull();
    expect((await probeRow(older.id)).alt).toBeNull();
    expect(await unmatchedOf(body.batch_id)).toMatchObject([
      {
        probe_code: man.code,
        reason: 'sex_mismatch',
        patient_sex: 'K',
        patient_birth_date: '1975-11-02',
      },
      {
        probe_code: older.code,
        reason: 'birth_date_mismatch',
        patient_sex: 'M',
        patient_birth_date: '1950-11-02',
      },
    ]);
  });

  it('a value that is no sex or no date is a row error, and nothing is written', async () => {
    const probe = await sampleOf('M');
    const before = await batchCount();
    const res = await postImport(t, admin.session.token, 'results', [
      {
        name: 'w.csv',
        content: csvOf(COLUMNS, [
          { probe_code: probe.code, analyte: 'alt', value: 20, patient_sex: 'X' },
          { probe_code: probe.code, analyte: 'ast', value: 20, patient_birth_date: '31.02.1975' },
          { probe_code: probe.code, analyte: 'creatine', value: 1, patient_sex: 'kobieta' },
        ]),
      },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'error',
      errors: [
        `w.csv, wiersz 2, kolumna patient_sex: ${INVALID}`,
        `w.csv, wiersz 3, kolumna patient_birth_date: ${validationMessage('invalid_date')}`,
        `w.csv, wiersz 4, kolumna patient_sex: ${INVALID}`,
      ],
    });
    expect(await batchCount()).toBe(before);
    expect(await probeRow(probe.id)).toMatchObject({ alt: null, ast: null, results_source: null });

    const xml = await postImport(t, admin.session.token, 'results', [
      {
        name: 'zly.xml',
        content: hl7Xml([{ sex: 'X', birth: '19751102', alt: [[probe.code, 5]] }]),
      },
    ]);
    expect(xml.statusCode).toBe(422);
    const errors = xml.json<{ errors: string[] }>().errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(`^zly\\.xml, wiersz \\d+, kolumna patient_sex: ${INVALID}$`),
    );
    expect(await batchCount()).toBe(before);
    expect((await probeRow(probe.id)).alt).toBeNull();
  });
});

describe('flush and restore put back every field a results batch changed', () => {
  const FIELDS = [
    'alt',
    'concentration_hours',
    'concentration_date_of_analysis',
    'results_source',
    'lab_ranges',
    'results_at',
    'status',
  ] as const;
  const fieldsOf = async (id: number) => {
    const row = await probeRow(id);
    const [medicine] = await t.db
      .select({ concentration: probeMedicines.concentration })
      .from(probeMedicines)
      .where(eq(probeMedicines.probe_id, id));
    // As PostgreSQL holds it: a JavaScript Date would hide lost microseconds.
    const [exact] = await t.db
      .select({ results_at: sql<string>`${probes.results_at}::text` })
      .from(probes)
      .where(eq(probes.id, id));
    return {
      ...Object.fromEntries(FIELDS.map((field) => [field, row[field]])),
      results_at: exact!.results_at,
      concentration: medicine!.concentration,
    };
  };
  const flush = () => t.request('POST', '/api/data_import/flush', { token: admin.session.token });
  const restore = (id: number) =>
    t.request('PUT', `/api/data_import/batches/${id}/restore`, { token: admin.session.token });

  it('a concentration with hours and date, a laboratory range, the source and status: back to before, then to the import', async () => {
    const probe = await sampleOf('M', {
      medicineIds: [7],
      alt: 10,
      concentration_hours: 5,
      concentration_date_of_analysis: '2026-10-01',
      results_source: 'hand',
      lab_ranges: { ast: { text: '0-35', min: 0, max: 35, unit: 'U/l' } },
      status: 'sent',
    });
    await inTransaction(t.db, admin.session.user.id, async (tx) => {
      await tx
        .update(probeMedicines)
        .set({ concentration: 50 })
        .where(eq(probeMedicines.probe_id, probe.id));
      await tx
        .update(probes)
        .set({ results_at: sql`'2026-10-02 08:00:00.123456+00'::timestamptz` })
        .where(eq(probes.id, probe.id));
    });
    const other = await sampleOf('K');
    const before = await fieldsOf(probe.id);
    expect(before.results_at).toContain('.123456');

    const res = await postImport(t, admin.session.token, 'results', [
      {
        name: 'w.csv',
        content: csvOf(COLUMNS, [
          {
            probe_code: probe.code,
            analyte: 'alt',
            value: 55,
            unit: 'U/l',
            lab_range: '0-40',
            patient_sex: 'M',
            patient_birth_date: '02.11.1975',
          },
          {
            probe_code: probe.code,
            analyte: '7',
            value: 120,
            unit: 'ng/ml',
            hours: 12,
            date_of_analysis: '03.11.2026',
            lab_range: '10-200',
          },
          // Three unmatched: one stays open, one is discarded and one matched by hand.
          { probe_code: 'NIEMA-OPEN', analyte: 'ast', value: 20 },
          { probe_code: 'NIEMA-DISCARD', analyte: 'ast', value: 21 },
          { probe_code: 'NIEMA-MATCH', analyte: 'ast', value: 22 },
        ]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const batchId = res.json<{ batch_id: number }>().batch_id;
    const imported = await fieldsOf(probe.id);
    expect(imported).toEqual({
      alt: 55,
      concentration_hours: 12,
      concentration_date_of_analysis: '2026-11-03',
      results_source: 'import',
      lab_ranges: {
        ast: { text: '0-35', min: 0, max: 35, unit: 'U/l' },
        alt: { text: '0-40', min: 0, max: 40, unit: null },
        medicine_7: { text: '10-200', min: 10, max: 200, unit: null },
      },
      results_at: expect.any(String) as string,
      status: 'received',
      concentration: 120,
    });
    const [open, discarded, matched] = await unmatchedOf(batchId);
    const discard = await t.request('PUT', `/api/lab/unmatched/${discarded!.id}/discard`, {
      token: admin.session.token,
      body: { reason: 'Duplikat', version: 1 },
    });
    expect(discard.statusCode, discard.body).toBe(200);
    const match = await t.request('PUT', `/api/lab/unmatched/${matched!.id}`, {
      token: admin.session.token,
      body: { probe_id: other.id, version: 1 },
    });
    expect(match.statusCode, match.body).toBe(200);

    expect((await flush()).statusCode).toBe(200);
    expect(await fieldsOf(probe.id)).toEqual(before);
    // Only the open one leaves the queue; what an administrator resolved stays resolved.
    const afterFlush = await unmatchedOf(batchId);
    expect(afterFlush.map((u) => [u.id, u.status, u.discard_reason])).toEqual([
      [open!.id, 'discarded', FLUSH_DISCARD_REASON],
      [discarded!.id, 'discarded', 'Duplikat'],
      [matched!.id, 'matched', null],
    ]);
    expect((await probeRow(other.id)).ast).toBe(22);

    expect((await restore(batchId)).statusCode).toBe(200);
    expect(await fieldsOf(probe.id)).toEqual(imported);
    const afterRestore = await unmatchedOf(batchId);
    expect(afterRestore.map((u) => [u.status, u.discard_reason])).toEqual([
      ['open', null],
      ['discarded', 'Duplikat'],
      ['matched', null],
    ]);

    // The probes' audit trigger recorded the import, the flush and the restore, by the admin.
    const audited = async (column: string) =>
      (
        await t.db
          .select({ value: auditEntries.new_value, user: auditEntries.user_id })
          .from(auditEntries)
          .where(
            and(
              eq(auditEntries.entity_name, 'probes'),
              eq(auditEntries.entity_id, String(probe.id)),
              eq(auditEntries.column_name, column),
            ),
          )
          .orderBy(auditEntries.id)
      ).slice(-3);
    const admin_ = admin.session.user.id;
    expect((await audited('concentration_hours')).map((e) => [Number(e.value), e.user])).toEqual([
      [12, admin_],
      [5, admin_],
      [12, admin_],
    ]);
    expect((await audited('results_source')).map((e) => e.value)).toEqual([
      'import',
      'hand',
      'import',
    ]);
    expect((await audited('concentration_date_of_analysis')).map((e) => e.value)).toEqual([
      '2026-11-03',
      '2026-10-01',
      '2026-11-03',
    ]);
    expect((await audited('status')).map((e) => e.value)).toEqual(['received', 'sent', 'received']);
    const [medicineEntries] = await t.db
      .select({ n: count() })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probe_medicines'),
          eq(auditEntries.column_name, 'concentration'),
          eq(auditEntries.patient_id, probe.patientId),
        ),
      );
    expect(medicineEntries!.n).toBeGreaterThanOrEqual(3);
  });

  it('several batches unwind to what was there before the first; alerts follow the safety rules', async () => {
    const probe = await sampleOf('M', { alt: 10, bilirubine: 5, results_source: 'hand' });
    const importAlt = async (value: number, range: string) => {
      const res = await postImport(t, admin.session.token, 'results', [
        {
          name: 'w.csv',
          content: csvOf(COLUMNS, [
            { probe_code: probe.code, analyte: 'alt', value, lab_range: range },
          ]),
        },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ batch_id: number }>().batch_id;
    };
    const first = await importAlt(30, '0-40');
    // Hy's law fires: ALT above 3 × and bilirubin above 2 × the upper limit.
    const second = await importAlt(400, '0-45');
    const alerts = () =>
      t.db
        .select({ rule: safetyAlerts.rule, details: safetyAlerts.details })
        .from(safetyAlerts)
        .where(eq(safetyAlerts.probe_id, probe.id));
    expect(await alerts()).toMatchObject([{ rule: 'hys_law', details: { alt: 400 } }]);

    expect((await flush()).statusCode).toBe(200);
    expect(await probeRow(probe.id)).toMatchObject({
      alt: 10,
      results_source: 'hand',
      lab_ranges: null,
    });
    // A raised safety signal stays until a doctor acknowledges it (safety-alerts/safety.ts).
    expect(await alerts()).toMatchObject([{ rule: 'hys_law', details: { alt: 400 } }]);

    expect((await restore(first)).statusCode).toBe(200);
    expect(await probeRow(probe.id)).toMatchObject({
      alt: 30,
      results_source: 'import',
      lab_ranges: { alt: { text: '0-40' } },
    });
    expect((await restore(second)).statusCode).toBe(200);
    expect(await probeRow(probe.id)).toMatchObject({
      alt: 400,
      lab_ranges: { alt: { text: '0-45' } },
    });
    expect(await alerts()).toHaveLength(1);
    const batches = await t.db
      .select({ flushed: importBatches.flushed_at })
      .from(importBatches)
      .where(inArray(importBatches.id, [first, second]));
    expect(batches.every((b) => b.flushed === null)).toBe(true);
  });
});
