import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ProbeDetail } from '@portal/shared';
import { labMessages, medicines, patients, unmatchedResults } from '../../db/schema.js';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { readSetting } from '../settings/index.js';
import { buildFakeOru, normalPanel } from './fake-lab.js';

/**
 * Issue 21 item 7: the connector's refusals as codes with the sample and the analyte (ADR 032),
 * the integration's last error, and the sample's page saying its results were refused.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
const LOGIN = 'synevo-bledy';
const PASSWORD = 'Haslo-Laboratorium-2';

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
    headers: {
      'content-type': 'text/plain',
      authorization: `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`,
    },
    payload: er7,
  });
const msa = (ack: string) => ack.split('\r').find((segment) => segment.startsWith('MSA|')) ?? '';

async function sampleOf(medicineIds: number[] = []) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel('M') });
  const { id, code } = await insertProbe(t.db, doctor.session.user.id, patient.id, { medicineIds });
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  return { id, code, birthDate: row!.birth_date.replaceAll('-', '') };
}

async function detail(id: number, token = admin.session.token) {
  const res = await t.request('GET', `/api/probes/${id}`, { token });
  expect(res.statusCode).toBe(200);
  return res.json<ProbeDetail>();
}

const lastError = async () => (await readSetting(t.db, 'synevo_last_error_message')).error;

describe('a refused message names the sample and the analyte', () => {
  it("stores the code and parameters, says so on every sample it named, and until the sample's results arrive", async () => {
    const first = await sampleOf();
    const second = await sampleOf();
    const bad = normalPanel(second.code);
    bad.observations[1] = { code: 'AST', value: 'hemoliza', unit: 'U/L' };
    const controlId = unique('err');
    const res = await send(
      buildFakeOru({ controlId, sex: 'M', samples: [normalPanel(first.code), bad] }),
    );
    // The ACK keeps its English text for the laboratory, naming fields only.
    expect(msa(res.body)).toBe(`MSA|AE|${controlId}|OBX 2: OBX-5 not a number`);
    const [row] = await t.db
      .select()
      .from(labMessages)
      .where(eq(labMessages.control_id, controlId));
    expect(row).toMatchObject({
      status: 'rejected',
      error: '102 OBX 2: OBX-5 not a number',
      error_code: 'not_a_number',
      error_params: { probe_code: second.code, analyte: 'ast', field: 'OBX-5' },
      probe_codes: [first.code, second.code],
    });
    expect(await lastError()).toMatchObject({
      code: 'not_a_number',
      params: { probe_code: second.code, analyte: 'ast', field: 'OBX-5' },
      control_id: controlId,
    });

    const refusal = {
      code: 'not_a_number',
      analyte: 'ast',
      params: { probe_code: second.code, analyte: 'ast', field: 'OBX-5' },
    };
    expect((await detail(second.id)).lab_refusals).toMatchObject([refusal]);
    // The other sample of the message lost its results with it: its page says so too, and
    // names the sample at fault. The doctor of the unit sees it as well.
    expect((await detail(first.id, doctor.session.token)).lab_refusals).toMatchObject([refusal]);
    const other = await t.readyDoctor((await t.unit()).id);
    expect(
      (await t.request('GET', `/api/probes/${first.id}`, { token: other.session.token }))
        .statusCode,
    ).toBe(404);

    // The laboratory sends again, right: the refusal is behind the stored results.
    const again = await send(
      buildFakeOru({ controlId: unique('ok'), samples: [normalPanel(second.code)] }),
    );
    expect(msa(again.body)).toMatch(/^MSA\|AA\|/);
    expect((await detail(second.id)).lab_refusals).toEqual([]);
    expect((await detail(first.id)).lab_refusals).toHaveLength(1);
    expect(await lastError()).toBeNull();
  });

  it('codes a date in the future, a wrong unit, a medicine the sample is not tested for, an implausible value', async () => {
    const [medicine] = await t.db.select().from(medicines).limit(1);
    const cases: [string, (code: string) => ReturnType<typeof normalPanel>, object][] = [
      [
        'date_in_future',
        (code) => {
          const panel = normalPanel(code);
          panel.observations[2] = { ...panel.observations[2]!, observedAt: '20991231' };
          return panel;
        },
        { analyte: 'creatine', field: 'OBX-14' },
      ],
      [
        'wrong_unit',
        (code) => {
          const panel = normalPanel(code);
          panel.observations[0] = { code: 'ALT', value: 20, unit: 'mg/dL' };
          return panel;
        },
        { analyte: 'alt', field: 'OBX-6' },
      ],
      [
        'implausible_value',
        (code) => {
          const panel = normalPanel(code);
          panel.observations[3] = { code: 'BIL', value: 9999, unit: 'mg/dL' };
          return panel;
        },
        { analyte: 'bilirubine', field: 'OBX-5' },
      ],
      [
        'medicine_not_tested',
        (code) => ({
          code,
          observations: [{ code: medicine!.cas, value: 12, unit: 'ng/ml' }],
        }),
        { analyte: `medicine_${medicine!.id}` },
      ],
    ];
    for (const [code, panel, params] of cases) {
      const sample = await sampleOf();
      const res = await send(
        buildFakeOru({ controlId: unique(code), samples: [panel(sample.code)] }),
      );
      expect(msa(res.body)).toMatch(/^MSA\|AE\|/);
      expect(await lastError()).toMatchObject({
        code,
        params: { probe_code: sample.code, ...params },
      });
      expect((await detail(sample.id)).lab_refusals).toMatchObject([
        { code, params: { probe_code: sample.code, ...params } },
      ]);
    }
  });

  it('codes a refusal that names no sample by what it is', async () => {
    const res = await send('MSH|^~\\&|A|B|C|D|20261124||ORU^R01|X1|T|2.5');
    expect(msa(res.body)).toMatch(/^MSA\|AR\|/);
    expect(await lastError()).toMatchObject({
      code: 'not_production',
      params: { field: 'MSH-11' },
    });
  });
});

describe('results held back by the patient check', () => {
  it("show on the sample's page while they wait, with the laboratory's patient name kept", async () => {
    const sample = await sampleOf();
    const res = await send(
      buildFakeOru({
        controlId: unique('sex'),
        sex: 'F',
        name: { surname: 'Kowalska', firstname: 'Anna' },
        samples: [normalPanel(sample.code)],
      }),
    );
    expect(msa(res.body)).toMatch(/^MSA\|AA\|/);
    const rows = await t.db
      .select()
      .from(unmatchedResults)
      .where(eq(unmatchedResults.probe_code, sample.code));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({
      reason: 'sex_mismatch',
      patient_firstname: 'Anna',
      patient_surname: 'Kowalska',
    });
    const shown = (await detail(sample.id)).lab_refusals;
    expect(shown.map((r) => r.code)).toEqual(Array(4).fill('sex_mismatch'));
    expect(shown.map((r) => r.analyte).sort()).toEqual(['alt', 'ast', 'bilirubine', 'creatine']);

    // Resolved ones leave the page.
    for (const row of rows) {
      const discarded = await t.request('PUT', `/api/lab/unmatched/${row.id}/discard`, {
        token: admin.session.token,
        body: { reason: 'Inny pacjent' },
      });
      expect(discarded.statusCode).toBe(200);
    }
    expect((await detail(sample.id)).lab_refusals).toEqual([]);
  });
});
