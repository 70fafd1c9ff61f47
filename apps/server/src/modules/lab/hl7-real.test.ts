import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Probe, UnmatchedResult } from '@portal/shared';
import HL7 from 'hl7-standard';
import {
  auditEntries,
  labMessages,
  medicines,
  patients,
  probeMedicines,
  probes,
  unmatchedResults,
} from '../../db/schema.js';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { buildFakeOru } from './fake-lab.js';
import { encodeIn } from './hl7-er7.js';
import {
  nistStyleReport,
  polishLabReport,
  referenceLabReport,
  standardStyleReport,
} from './hl7-fixtures.js';
import { receiveHl7Bytes } from './hl7-service.js';
import { simulatedMessage } from './simulator.js';
import { putWithReason } from '../../test/versions.js';

/**
 * The connector with messages shaped like real laboratories' (hl7-fixtures.ts; ADR 033), over
 * HTTP and through the bytes entry point the transports call.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
const LOGIN = 'synevo-real';
const PASSWORD = 'Haslo-Laboratorium-2';
const authorization = `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`;

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

const send = (er7: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/lab/hl7',
    headers: { 'content-type': 'x-application/hl7-v2+er7', authorization },
    payload: er7,
  });

function ackOf(body: string) {
  const ack = new HL7(body);
  ack.transform();
  return ack;
}

async function sampleOf(sex: 'M' | 'K' = 'K', medicineIds: number[] = [], code?: string) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel(sex) });
  const { id, code: probeCode } = await insertProbe(t.db, doctor.session.user.id, patient.id, {
    medicineIds,
    ...(code ? { code } : {}),
  });
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  return {
    id,
    code: probeCode,
    patientId: patient.id,
    patient: {
      birthDate: row!.birth_date.replaceAll('-', ''),
      sex: sex === 'K' ? 'F' : 'M',
    } as const,
  };
}

async function probeOf(id: number): Promise<Probe> {
  const res = await t.request('GET', `/api/probes/${id}`, { token: admin.session.token });
  expect(res.statusCode).toBe(200);
  return res.json<Probe>();
}

describe('messages shaped like real laboratories', () => {
  it('stores the Polish report: "< 0,5" in norm, comments, and CHOL waiting by itself', async () => {
    const sample = await sampleOf('K');
    const controlId = unique('PL');
    const res = await send(
      polishLabReport({
        controlId,
        code: sample.code,
        patient: sample.patient,
        charset: 'UNICODE UTF-8',
      }),
    );
    const ack = ackOf(res.body);
    expect(ack.get('MSA.1')).toBe('AA');
    expect(ack.get('MSA.2')).toBe(controlId);
    expect(ack.get('MSH.9')).toEqual({ 'MSH.9.1': 'ACK', 'MSH.9.2': 'R01', 'MSH.9.3': 'ACK' });
    expect(ack.get('MSH.18')).toBe('UNICODE UTF-8');

    const probe = await probeOf(sample.id);
    expect(probe.biochemistry_results).toEqual({
      alt: 23.5,
      ast: 21,
      creatine: 0.84,
      bilirubine: 0.5,
    });
    expect(probe.result_comparators).toEqual({ bilirubine: { comparator: '<', upper: null } });
    // "<0,5" under the laboratory's "(<1,2)": below the detection limit is in norm.
    expect(probe.concentration_range.bilirubine).toMatchObject({
      below: 1.2,
      source: 'laboratory',
    });
    expect(probe.results_out_of_norm).toEqual([]);
    expect(probe.lab_comments).toEqual({
      sample: 'Próbka lekko zhemolizowana.\nWynik potwierdzono.',
      results: {
        bilirubine: 'Wynik poniżej granicy oznaczalności.',
        creatine: 'Oznaczenie metodą enzymatyczną.',
      },
    });
    const [message] = await t.db
      .select()
      .from(labMessages)
      .where(eq(labMessages.control_id, controlId));
    const unmatched = await t.db
      .select()
      .from(unmatchedResults)
      .where(eq(unmatchedResults.lab_message_id, message!.id));
    expect(unmatched).toMatchObject([
      { analyte: 'CHOL', value: 182, unit: 'mg/dl', reason: 'unknown_analyte', status: 'open' },
    ]);
    // The audit trail records the qualifier and the comments like any other column.
    const audited = await t.db
      .select({ column: auditEntries.column_name, value: auditEntries.new_value })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, sample.patientId),
          inArray(auditEntries.column_name, ['result_comparators', 'lab_comments']),
        ),
      );
    expect(audited.map((row) => row.column).sort()).toEqual(['lab_comments', 'result_comparators']);

    // The unknown analyte cannot be attached to a sample; the unmatched list still reads.
    const match = await t.request('PUT', `/api/lab/unmatched/${unmatched[0]!.id}`, {
      token: admin.session.token,
      body: { probe_id: sample.id, version: 1 },
    });
    expect(match.statusCode).toBe(422);
    const list = await t.request('GET', '/api/lab/unmatched?limit=100', {
      token: admin.session.token,
    });
    expect(list.statusCode).toBe(200);
    expect(
      list.json<{ data: UnmatchedResult[] }>().data.some((row) => row.reason === 'unknown_analyte'),
    ).toBe(true);
  });

  it('flags ">" when the range has an upper limit, "<" only when its limit may exceed it', async () => {
    const sample = await sampleOf('M');
    const res = await send(
      buildFakeOru({
        controlId: unique('SN'),
        sex: sample.patient.sex,
        birthDate: sample.patient.birthDate,
        samples: [
          {
            code: sample.code,
            observations: [
              { code: 'ALT', value: '>^1000', unit: 'U/L', range: '10-40', valueType: 'SN' },
              { code: 'AST', value: '<^50', unit: 'U/L', range: '10-40', valueType: 'SN' },
              {
                code: 'CREA',
                value: '^0.7^-^0.9',
                unit: 'mg/dL',
                range: '0.6-1.2',
                valueType: 'SN',
              },
              { code: 'BIL', value: '<^0.3', unit: 'mg/dL', range: '0.3-1.2', valueType: 'SN' },
            ],
          },
        ],
      }),
    );
    expect(ackOf(res.body).get('MSA.1')).toBe('AA');
    const probe = await probeOf(sample.id);
    expect(probe.result_comparators).toEqual({
      alt: { comparator: '>', upper: null },
      ast: { comparator: '<', upper: null },
      creatine: { comparator: '-', upper: 0.9 },
      bilirubine: { comparator: '<', upper: null },
    });
    // ALT above the measuring range; AST "<50" may be above 40; BIL "<0.3" is surely below 0.3.
    expect(probe.results_out_of_norm.sort()).toEqual(['alt', 'ast', 'bilirubine']);

    // A value typed by hand is plain again.
    const saved = await putWithReason(t, `/api/probes/${sample.id}/results`, {
      token: doctor.session.token,
      body: { biochemistry_results: { alt: 35 }, version: probe.version },
    });
    expect(saved.statusCode).toBe(200);
    const corrected = await probeOf(sample.id);
    expect(corrected.result_comparators.alt).toBeUndefined();
    expect(corrected.result_comparators.ast).toEqual({ comparator: '<', upper: null });
  });

  it('stores the standard example, the reference laboratory and the NIST layout', async () => {
    const a = await sampleOf('K');
    const b = await sampleOf('K');
    const c = await sampleOf('K');
    const answers = [
      await send(standardStyleReport(unique('GHH'), a.code, a.patient)),
      await send(referenceLabReport(unique('LC'), b.code, b.patient)),
      await send(nistStyleReport(unique('NIST'), c.code, c.patient, { alt: '30', ast: '25' })),
    ].map((res) => ackOf(res.body));
    expect(answers.map((ack) => [ack.get('MSA.1'), ack.get('MSH.12')])).toEqual([
      ['AA', '2.4'],
      ['AA', '2.3'],
      ['AA', '2.5.1'],
    ]);
    const first = await probeOf(a.id);
    expect(first.biochemistry_results.alt).toBe(182);
    expect(first.results_out_of_norm).toEqual(['alt']);
    const second = await probeOf(b.id);
    expect(second.biochemistry_results).toMatchObject({ creatine: 0.9, bilirubine: null });
    expect(second.lab_comments.results.bilirubine).toBe(
      'Sample hemolysed & lipemic; bilirubin not reported.',
    );
    expect(second.lab_comments.sample).toContain('HIV-1 ABS, SEMI-QN: Negative');
    expect((await probeOf(c.id)).biochemistry_results).toMatchObject({ alt: 30, ast: 25 });
  });

  it('answers AR with ERR 203 to an unsupported version and records it', async () => {
    const controlId = unique('V22');
    const res = await send(
      standardStyleReport(controlId, 'X-1', { birthDate: '19700101', sex: 'F' }).replace(
        '|P|2.4',
        '|P|2.2',
      ),
    );
    const ack = ackOf(res.body);
    expect(ack.get('MSA.1')).toBe('AR');
    expect(ack.get('ERR.3.1')).toBe('203');
    const [row] = await t.db
      .select()
      .from(labMessages)
      .where(eq(labMessages.control_id, controlId));
    expect(row).toMatchObject({ status: 'rejected', error: '203 MSH-12: unsupported version' });
  });
});

describe('character sets (receiveHl7Bytes)', () => {
  const report = (
    code: string,
    patient: { birthDate: string; sex: 'M' | 'F' },
    charset: string | null,
  ) => polishLabReport({ controlId: unique('CS'), code, patient, charset });

  it.each([
    ['8859/2', 'iso-8859-2'],
    ['WINDOWS-1250', 'windows-1250'],
  ] as const)('reads MSH-18 %s and answers in it', async (msh18, charset) => {
    const sample = await sampleOf('K');
    const text = report(sample.code, sample.patient, msh18);
    const outcome = await receiveHl7Bytes(t.db, encodeIn(text, charset), null);
    expect(outcome.code).toBe('AA');
    expect(outcome.ackContentType).toBe(`x-application/hl7-v2+er7; charset=${charset}`);
    expect(outcome.ackBytes.toString('latin1')).toContain(`|${msh18}`);
    const probe = await probeOf(sample.id);
    expect(probe.lab_comments.sample).toBe('Próbka lekko zhemolizowana.\nWynik potwierdzono.');
  });

  it('takes the transport charset when MSH-18 is empty; MSH-18 wins over it', async () => {
    const sample = await sampleOf('K');
    const text = report(sample.code, sample.patient, null);
    const outcome = await receiveHl7Bytes(t.db, encodeIn(text, 'windows-1250'), 'windows-1250');
    expect(outcome.code).toBe('AA');
    expect((await probeOf(sample.id)).lab_comments.results.creatine).toBe(
      'Oznaczenie metodą enzymatyczną.',
    );
    const other = await sampleOf('K');
    const declared = report(other.code, other.patient, '8859/2');
    const won = await receiveHl7Bytes(t.db, encodeIn(declared, 'iso-8859-2'), 'utf-8');
    expect(won.code).toBe('AA');
  });

  it('answers AE 102 to bytes not valid in the charset, and records the message', async () => {
    const sample = await sampleOf('K');
    const text = report(sample.code, sample.patient, 'UNICODE UTF-8');
    // ISO-8859-2 bytes under a UTF-8 declaration: "ó" as 0xF3 is no UTF-8.
    const outcome = await receiveHl7Bytes(t.db, encodeIn(text, 'iso-8859-2'), null);
    expect(outcome.code).toBe('AE');
    expect(outcome.errorCode).toBe(102);
    const ack = ackOf(outcome.ack);
    expect(ack.get('ERR.3.1')).toBe('102');
    expect(ack.get('MSA.2')).toMatch(/^CS-/);
    const [row] = await t.db
      .select()
      .from(labMessages)
      .where(eq(labMessages.control_id, ack.get('MSA.2') as string));
    expect(row?.status).toBe('rejected');
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBeNull();
    const unknown = await receiveHl7Bytes(
      t.db,
      Buffer.from(text.replace('UNICODE UTF-8', 'KOI8-R')),
      null,
    );
    expect(unknown).toMatchObject({ code: 'AE', errorCode: 103 });
  });
});

describe('what the portal writes is escaped', () => {
  it('the simulator keeps a separator-rich code and a patient name with | whole', async () => {
    const code = `Q|B^C&D~E\\F-${Date.now().toString(36)}`;
    const patient = await registerPatient(t, doctor, {
      pesel: freshPesel('M'),
      surname: 'Nowak|OBX|1',
    });
    const { id } = await insertProbe(t.db, doctor.session.user.id, patient.id, { code });
    const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
    const er7 = simulatedMessage({
      id: 41,
      code,
      typeOfTest: 'biochemistry',
      dateOfSample: '2026-11-20',
      sex: 'M',
      birthDate: row!.birth_date,
      drugCodes: [],
    });
    expect(er7.split('\r').map((segment) => segment.slice(0, 3))).toEqual([
      'MSH',
      'PID',
      'OBR',
      'OBX',
      'OBX',
      'OBX',
      'OBX',
    ]);
    const res = await send(er7);
    expect(ackOf(res.body).get('MSA.1')).toBe('AA');
    expect((await probeOf(id)).status).toBe('received');
  });
});

describe('a message of 10,000 results', () => {
  it('is stored in chunks and answered AA; every message recorded', async () => {
    const patient = await registerPatient(t, doctor, { pesel: freshPesel('M') });
    const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
    const medicineIds = Array.from({ length: 16 }, (_, i) => i + 1);
    const codes: string[] = [];
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const sample = await insertProbe(t.db, doctor.session.user.id, patient.id, { medicineIds });
      codes.push(sample.code);
      ids.push(sample.id);
    }
    const drugCodes = (
      await t.db
        .select({ cas: medicines.cas })
        .from(medicines)
        .where(inArray(medicines.id, medicineIds))
        .orderBy(medicines.id)
    ).map((medicine) => medicine.cas);
    const controlId = unique('BIG');
    const segments = [
      `MSH|^~\\&|MOLIS|SYNEVO|PORTAL|KARDIO|20261125093000||ORU^R01^ORU_R01|${controlId}|P|2.5`,
      `PID|1||LAB-1||PACJENT^TESTOWY||${row!.birth_date.replaceAll('-', '')}|M`,
    ];
    for (let group = 0; group < 500; group++) {
      const code = group < 20 ? codes[group]! : `NOPE-${controlId}-${group}`;
      segments.push(`OBR|${group + 1}||${code}|PANEL|||202611250800`);
      let set = 0;
      const obx = (text: string) => segments.push(`OBX|${++set}|${text}`);
      obx(`NM|ALT||${20 + (group % 10)}|U/L|10-40`);
      obx(`NM|AST||22|U/L|10-40`);
      obx(`NM|CREA||0.9|mg/dL|0.6-1.2`);
      obx(`SN|BIL||<^0.5|mg/dL|<1.2`);
      for (const drug of drugCodes) obx(`NM|${drug}||12.5|ng/mL`);
      obx(`NM|HSLD||6|h`);
    }
    const er7 = segments.join('\r');
    expect(er7.length).toBeLessThan(1024 * 1024);
    // Its time is measured by the bench (`BENCH_ONLY=hl7`) against 5 s, not on a shared runner.
    const res = await send(er7);
    expect(res.statusCode).toBe(200);
    expect(ackOf(res.body).get('MSA.1')).toBe('AA');
    const [message] = await t.db
      .select()
      .from(labMessages)
      .where(eq(labMessages.control_id, controlId));
    expect(message).toMatchObject({ status: 'accepted', results_count: 10_000 });
    const [waiting] = await t.db
      .select({ n: count() })
      .from(unmatchedResults)
      .where(eq(unmatchedResults.lab_message_id, message!.id));
    expect(waiting!.n).toBe(480 * 20);
    const stored = await t.db
      .select({ id: probes.id, alt: probes.alt, comparators: probes.result_comparators })
      .from(probes)
      .where(inArray(probes.id, ids));
    expect(stored.every((sample) => sample.alt !== null)).toBe(true);
    expect(stored[0]?.comparators).toEqual({ bilirubine: { comparator: '<', upper: null } });
    const [concentrations] = await t.db
      .select({ n: count() })
      .from(probeMedicines)
      .where(and(inArray(probeMedicines.probe_id, ids), eq(probeMedicines.concentration, 12.5)));
    expect(concentrations!.n).toBe(20 * 16);
  }, 300_000);
});
