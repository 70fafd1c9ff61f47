import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDITED_COLUMNS, AUDITED_ENTITIES, hiddenAuditColumns } from '@portal/shared';
import type { AuditEntry } from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import { inTransaction, markAuditSource } from '../../db/client.js';
import { carriers, medicines, patients, unmatchedResults } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { csvOf, postImport } from '../../test/import-fixture.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { columnNames } from '../imports/index.js';
import { buildFakeOru, normalPanel } from '../lab/index.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
const LOGIN = 'audit-lab';
const PASSWORD = 'Haslo-Laboratorium-1';
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  const res = await t.request('POST', '/api/settings/synevo', {
    token: admin.session.token,
    body: {
      value: { login: LOGIN, password: PASSWORD, unit_code: 'POR-1', enable_results_import: true },
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t?.close());

async function entries(patientId: number): Promise<AuditEntry[]> {
  const res = await t.request('GET', '/api/audit_trial', {
    token: admin.session.token,
    query: { patientIds: String(patientId), limit: '100' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: AuditEntry[] }>().data;
}

const hl7 = (er7: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/lab/hl7',
    headers: {
      'content-type': 'text/plain',
      authorization: `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`,
    },
    payload: er7,
  });

async function sample(medicineIds: number[] = []) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel('M') });
  const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, { medicineIds });
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  return { ...probe, patientId: patient.id, birthDate: row!.birth_date.replaceAll('-', '') };
}

const doctorName = () => `${doctor.doctor.surname} ${doctor.doctor.firstname}`;

describe('the label map of the audit trail', () => {
  it('knows every column every audit trigger records, so a new column needs a decision', async () => {
    const triggers = rowsOf<{ table: string; statement: string }>(
      await t.db.execute(sql`select event_object_table as "table", action_statement as statement
        from information_schema.triggers
        where action_statement like '%audit_row(%' and event_manipulation = 'INSERT'`),
    );
    const audited = new Map<string, string[]>();
    for (const { table, statement } of triggers) {
      const args = [...statement.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
      const skipped = new Set(['created_at', 'updated_at', ...(args[1]?.split(',') ?? [])]);
      const columns = rowsOf<{ column_name: string }>(
        await t.db.execute(sql`select column_name from information_schema.columns
          where table_schema = 'public' and table_name = ${table}`),
      ).map((c) => c.column_name);
      audited.set(
        table,
        columns.filter((c) => !skipped.has(c)),
      );
    }
    expect([...audited.keys()].sort()).toEqual([...AUDITED_ENTITIES].sort());
    for (const [table, columns] of audited) {
      const known = Object.keys(AUDITED_COLUMNS[table as keyof typeof AUDITED_COLUMNS]);
      expect(
        columns.filter((c) => !known.includes(c)),
        `${table}: columns without an entry`,
      ).toEqual([]);
    }
    // Internal keys and versions are hidden wherever they occur.
    const hidden = hiddenAuditColumns().map(([e, c]) => `${e}.${c}`);
    expect(hidden).toEqual(expect.arrayContaining(['probes.version', 'patients.import_batch_id']));
  });
});

describe('a readable audit trail', () => {
  it('names people, lookups and records, hides keys and versions, and credits the laboratory', async () => {
    const [amlodipine] = await t.db.select().from(medicines).where(eq(medicines.id, 7));
    const s = await sample([7]);
    const [carrier] = await t.db.select().from(carriers).orderBy(carriers.id).limit(1);
    const res = await hl7(
      buildFakeOru({
        controlId: `AUD-${s.id}`,
        sex: 'M',
        birthDate: s.birthDate,
        samples: [normalPanel(s.code)],
      }),
    );
    expect(res.statusCode).toBe(200);

    const log = await entries(s.patientId);
    const hidden = new Set(hiddenAuditColumns().map(([e, c]) => `${e}.${c}`));
    expect(log.filter((e) => hidden.has(`${e.entity_name}.${e.column_name}`))).toEqual([]);
    expect(log.some((e) => e.column_name === 'version')).toBe(false);
    expect(log.some((e) => e.column_name === 'probe_id' || e.column_name === 'id')).toBe(false);

    // The patient's registration: the doctor by name, the doctor and unit columns as names.
    const registered = log.find(
      (e) => e.entity_name === 'patients' && e.column_name === 'doctor_id',
    );
    expect(registered).toMatchObject({
      user: { login: doctor.login, name: doctorName() },
      source: null,
      new_name: doctorName(),
    });
    expect(
      log.find((e) => e.entity_name === 'patients' && e.column_name === 'unit_id')?.new_name,
    ).toBeTruthy();

    // The new sample: its code, its carrier and its medicine by name, the sample as the record.
    expect(
      log.find(
        (e) => e.entity_name === 'probes' && e.operation === 'insert' && e.column_name === 'code',
      ),
    ).toMatchObject({ new_value: s.code, record: s.code, user: { name: doctorName() } });
    expect(
      log.find((e) => e.entity_name === 'probes' && e.column_name === 'carrier_id'),
    ).toMatchObject({ new_name: carrier!.name });
    expect(
      log.find((e) => e.entity_name === 'probe_medicines' && e.operation === 'insert'),
    ).toMatchObject({
      column_name: 'medicine_id',
      new_name: amlodipine!.name,
      record: `${s.code} · ${amlodipine!.name}`,
    });

    // The laboratory's results: no person, the HL7 source.
    const status = log.find(
      (e) => e.entity_name === 'probes' && e.operation === 'update' && e.column_name === 'status',
    );
    expect(status).toMatchObject({
      old_value: 'collected',
      new_value: 'received',
      source: 'hl7',
      user: { login: null, name: null },
    });
    const alt = log.find((e) => e.entity_name === 'probes' && e.column_name === 'alt');
    expect(alt).toMatchObject({ source: 'hl7', new_value: '25' });
    expect(
      log.filter((e) => e.entity_name === 'probes' && e.column_name === 'results_source'),
    ).toMatchObject([{ new_value: 'hl7', source: 'hl7' }]);
  });

  it('says a matched result came from a manual match, by the administrator', async () => {
    const s = await sample();
    const id = await inTransaction(t.db, null, async (tx) => {
      await markAuditSource(tx, 'hl7');
      const [row] = await tx
        .insert(unmatchedResults)
        .values({
          probe_code: 'NIEZNANA-AUD',
          analyte: 'alt',
          value: 31,
          reason: 'no_probe',
          raw: { 'OBX-3': 'ALT' },
        })
        .returning({ id: unmatchedResults.id });
      return row!.id;
    });
    const res = await t.request('PUT', `/api/lab/unmatched/${id}`, {
      token: admin.session.token,
      body: { probe_id: s.id, version: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const log = await entries(s.patientId);
    const alt = log.find((e) => e.entity_name === 'probes' && e.column_name === 'alt');
    expect(alt).toMatchObject({
      source: 'manual_match',
      new_value: '31',
      user: { login: admin.login, name: admin.login },
    });
    const matched = log.find(
      (e) => e.entity_name === 'unmatched_results' && e.column_name === 'status',
    );
    expect(matched).toMatchObject({
      old_value: 'open',
      new_value: 'matched',
      source: 'manual_match',
      record: 'NIEZNANA-AUD · alt',
    });
    expect(
      log.find((e) => e.entity_name === 'unmatched_results' && e.column_name === 'probe_id'),
    ).toMatchObject({ new_name: s.code });
    expect(
      log.find((e) => e.entity_name === 'unmatched_results' && e.column_name === 'resolved_by'),
    ).toMatchObject({ new_name: admin.login });
  });

  it('credits the results import, its flush and its restore', async () => {
    const s = await sample();
    const imported = await postImport(t, admin.session.token, 'results', [
      {
        name: 'wyniki.csv',
        content: csvOf(columnNames('results'), [
          { probe_code: s.code, analyte: 'ast', value: 33, unit: 'U/l', lab_range: '0-40' },
        ]),
      },
    ]);
    expect(imported.statusCode, imported.body).toBe(200);
    const batch = imported.json<{ batch_id: number }>().batch_id;
    const flush = await t.request('POST', '/api/data_import/flush', {
      token: admin.session.token,
    });
    expect(flush.statusCode, flush.body).toBe(200);
    const restore = await t.request('PUT', `/api/data_import/batches/${batch}/restore`, {
      token: admin.session.token,
    });
    expect(restore.statusCode, restore.body).toBeLessThan(300);

    const ast = (await entries(s.patientId))
      .filter((e) => e.entity_name === 'probes' && e.column_name === 'ast')
      .reverse();
    expect(ast.map((e) => [e.old_value, e.new_value, e.source])).toEqual([
      [null, '33', 'import'],
      ['33', null, 'flush'],
      [null, '33', 'restore'],
    ]);
    expect(ast.every((e) => e.user.name === admin.login)).toBe(true);
    // The oldest entry of the lab's ranges is the import's (newest first).
    const ranges = (await entries(s.patientId)).findLast((e) => e.column_name === 'lab_ranges');
    expect(ranges?.source).toBe('import');
  });

  it('refuses a source the trail cannot name, and writes nothing then', async () => {
    const s = await sample();
    await expect(
      inTransaction(t.db, doctor.session.user.id, async (tx) => {
        await tx.execute(sql`select set_config('app.source', 'guesswork', true)`);
        await tx.update(patients).set({ weight: 99 }).where(eq(patients.id, s.patientId));
      }),
    ).rejects.toThrow();
    const [row] = await t.db.select().from(patients).where(eq(patients.id, s.patientId));
    expect(row!.weight).not.toBe(99);
  });
});
