import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import type { Probe } from '@portal/shared';
import {
  auditEntries,
  labMessages,
  medicines,
  patients,
  probes,
  safetyAlerts,
  unmatchedResults,
} from '../../db/schema.js';
import { createTestApp, unique } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { readSetting } from '../settings/index.js';
import { buildFakeOru, normalPanel } from './fake-lab.js';
import type { FakeSample } from './fake-lab.js';
import { HL7_MAX_MESSAGE_BYTES } from './hl7-transport.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
const LOGIN = 'synevo-lab';
const PASSWORD = 'Haslo-Laboratorium-1';
const basic = (login = LOGIN, password = PASSWORD) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

async function configure(enabled: boolean) {
  const res = await t.request('POST', '/api/settings/synevo', {
    token: admin.session.token,
    body: {
      value: {
        login: LOGIN,
        password: PASSWORD,
        unit_code: 'POR-1',
        enable_results_import: enabled,
      },
    },
  });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  await configure(true);
});
afterAll(() => t?.close());

const send = (er7: string, authorization: string | null = basic(), type = 'text/plain') =>
  t.app.inject({
    method: 'POST',
    url: '/api/lab/hl7',
    headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
    payload: er7,
  });

async function sampleOf(sex: 'M' | 'K' = 'M', medicineIds: number[] = []) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel(sex) });
  const { id, code } = await insertProbe(t.db, doctor.session.user.id, patient.id, { medicineIds });
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  return {
    id,
    code,
    patientId: patient.id,
    sex: sex === 'M' ? 'M' : 'F',
    birthDate: row!.birth_date.replaceAll('-', ''),
  };
}

const msa = (ack: string) => ack.split('\r').find((segment) => segment.startsWith('MSA|')) ?? '';

async function probeOf(id: number): Promise<Probe> {
  const res = await t.request('GET', `/api/probes/${id}`, { token: admin.session.token });
  expect(res.statusCode).toBe(200);
  return res.json<Probe>();
}

async function messagesWith(controlId: string) {
  return t.db.select().from(labMessages).where(eq(labMessages.control_id, controlId));
}

describe('POST /api/lab/hl7', () => {
  it('stores a panel: AA, values, laboratory ranges and flags, source hl7, received', async () => {
    const sample = await sampleOf('K');
    const controlId = unique('msg');
    const panel = normalPanel(sample.code);
    panel.observations[0] = { code: 'ALT', value: 45, unit: 'U/L', range: '10-40' };
    const res = await send(
      buildFakeOru({ controlId, sex: sample.sex, birthDate: sample.birthDate, samples: [panel] }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(msa(res.body)).toBe(`MSA|AA|${controlId}|OK`);
    expect(res.body.startsWith('MSH|^~\\&|')).toBe(true);

    const probe = await probeOf(sample.id);
    expect(probe.status).toBe('received');
    expect(probe.biochemistry_results).toEqual({
      alt: 45,
      ast: 22,
      creatine: 0.9,
      bilirubine: 0.7,
    });
    // The study's female ALT range is 8–41; the laboratory's 10–40 wins, and 45 is out of both.
    expect(probe.concentration_range.alt).toEqual({
      unit: 'U/l',
      min: 10,
      max: 40,
      below: null,
      source: 'laboratory',
    });
    expect(probe.concentration_range.bilirubine).toMatchObject({
      below: 1.2,
      source: 'laboratory',
    });
    expect(probe.results_out_of_norm).toEqual(['alt']);
    const [row] = await t.db.select().from(probes).where(eq(probes.id, sample.id));
    expect(row!.results_source).toBe('hl7');
    expect(row!.lab_ranges?.creatine).toEqual({
      text: '0.6-1.2',
      min: 0.6,
      max: 1.2,
      unit: 'mg/dl',
    });

    const [message] = await messagesWith(controlId);
    expect(message).toMatchObject({ status: 'accepted', results_count: 4, error: null });
  });

  it('flags by the laboratory range where the study range would not', async () => {
    const sample = await sampleOf('M');
    const res = await send(
      buildFakeOru({
        controlId: unique('msg'),
        samples: [
          {
            code: sample.code,
            observations: [{ code: 'ALT', value: 50, unit: 'U/l', range: '5-45' }],
          },
        ],
      }),
    );
    expect(msa(res.body)).toMatch(/^MSA\|AA\|/);
    // The study's male range is 9–59: only the laboratory's 5–45 makes 50 out of norm.
    expect((await probeOf(sample.id)).results_out_of_norm).toEqual(['alt']);
  });

  it('audits the stored values with no acting user (the system)', async () => {
    const sample = await sampleOf();
    await send(buildFakeOru({ controlId: unique('msg'), samples: [normalPanel(sample.code)] }));
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, sample.patientId),
          eq(auditEntries.entity_name, 'probes'),
          eq(auditEntries.column_name, 'alt'),
        ),
      );
    expect(entries.map((entry) => [Number(entry.new_value), entry.user_id])).toEqual([[25, null]]);
  });

  it("raises a Hy's law alert from laboratory results", async () => {
    const sample = await sampleOf();
    await send(
      buildFakeOru({
        controlId: unique('msg'),
        samples: [
          {
            code: sample.code,
            observations: [
              { code: 'ALT', value: 400, unit: 'U/L' },
              { code: 'BIL', value: 5, unit: 'mg/dL' },
            ],
          },
        ],
      }),
    );
    const alerts = await t.db
      .select()
      .from(safetyAlerts)
      .where(eq(safetyAlerts.probe_id, sample.id));
    expect(alerts.map((alert) => alert.rule)).toEqual(['hys_law']);
  });

  it('stores a drug concentration by CAS number with the hours since the dose', async () => {
    const [medicine] = await t.db.select().from(medicines).where(eq(medicines.id, 7));
    const sample = await sampleOf('M', [7]);
    const res = await send(
      buildFakeOru({
        controlId: unique('msg'),
        samples: [
          {
            code: sample.code,
            observations: [
              { code: medicine!.cas, value: '12,5', unit: 'ng/mL', observedAt: '20261120' },
              { code: 'HSLD', value: 6, unit: 'h' },
            ],
          },
        ],
      }),
    );
    expect(msa(res.body)).toMatch(/^MSA\|AA\|/);
    const probe = await probeOf(sample.id);
    expect(probe.concentrations_results).toEqual({
      hours: 6,
      date_of_analysis: '2026-11-20',
      concentrations: [{ medicine_id: 7, value: 12.5 }],
    });
  });

  it('answers the same AA to a repeated control id and changes nothing', async () => {
    const sample = await sampleOf();
    const controlId = unique('msg');
    const er7 = buildFakeOru({ controlId, samples: [normalPanel(sample.code)] });
    expect(msa((await send(er7)).body)).toBe(`MSA|AA|${controlId}|OK`);
    const version = (await probeOf(sample.id)).version;
    const again = await send(er7);
    expect(msa(again.body)).toBe(`MSA|AA|${controlId}|OK`);
    expect((await probeOf(sample.id)).version).toBe(version);
    expect(await messagesWith(controlId)).toHaveLength(1);
  });

  it('keeps results for an unknown code and a sex mismatch as unmatched', async () => {
    const sample = await sampleOf('M');
    const unknownCode = unique('NOPE');
    const controlId = unique('msg');
    const res = await send(
      buildFakeOru({
        controlId,
        sex: 'F',
        birthDate: sample.birthDate,
        samples: [normalPanel(sample.code), normalPanel(unknownCode)],
      }),
    );
    expect(msa(res.body)).toBe(`MSA|AA|${controlId}|OK`);
    const [message] = await messagesWith(controlId);
    const rows = await t.db
      .select()
      .from(unmatchedResults)
      .where(eq(unmatchedResults.lab_message_id, message!.id));
    expect(rows).toHaveLength(8);
    const byCode = (code: string) => rows.filter((row) => row.probe_code === code);
    expect(new Set(byCode(sample.code).map((row) => row.reason))).toEqual(
      new Set(['sex_mismatch']),
    );
    expect(new Set(byCode(unknownCode).map((row) => row.reason))).toEqual(new Set(['no_probe']));
    expect(byCode(unknownCode).find((row) => row.analyte === 'alt')).toMatchObject({
      value: 25,
      unit: 'U/l',
      lab_range: '10-40',
      patient_sex: 'K',
      status: 'open',
    });
    expect(byCode(unknownCode).find((row) => row.analyte === 'alt')?.raw).toMatchObject({
      'OBX-5': '25',
      'OBR-3': unknownCode,
    });
    // Nothing attached to the sample whose patient disagrees.
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBeNull();
  });

  it('keeps results whose birth date disagrees as unmatched', async () => {
    const sample = await sampleOf('M');
    await send(
      buildFakeOru({
        controlId: unique('msg'),
        sex: 'M',
        birthDate: '19990101',
        samples: [normalPanel(sample.code)],
      }),
    );
    const rows = await t.db
      .select({ reason: unmatchedResults.reason })
      .from(unmatchedResults)
      .where(eq(unmatchedResults.probe_code, sample.code));
    expect(rows.map((row) => row.reason)).toEqual(Array(4).fill('birth_date_mismatch'));
  });

  it('answers AE, stores nothing but the rejected message, and records the last error', async () => {
    const sample = await sampleOf();
    const controlId = unique('msg');
    const panel: FakeSample = normalPanel(sample.code);
    panel.observations.push({ code: 'ALT2', value: 'hemoliza', unit: 'U/L' });
    panel.observations[1] = { code: 'AST', value: 'hemoliza', unit: 'U/L' };
    const before = (await probeOf(sample.id)).version;
    const res = await send(buildFakeOru({ controlId, samples: [panel] }));
    expect(res.statusCode).toBe(200);
    expect(msa(res.body)).toBe(`MSA|AE|${controlId}|OBX 2: OBX-5 not a number`);
    expect(res.body).toContain(
      '\rERR||OBX^2^5|102^Data type error^HL70357|E||||OBX 2: OBX-5 not a number',
    );
    expect((await probeOf(sample.id)).version).toBe(before);
    expect(await messagesWith(controlId)).toMatchObject([
      { status: 'rejected', error: '102 OBX 2: OBX-5 not a number', results_count: 0 },
    ]);
    const lastError = await readSetting(t.db, 'synevo_last_error_message');
    // For the administrator: the code, the sample and the analyte (the web says it in Polish);
    // the ACK's own text, kept as the detail, names fields only.
    expect(lastError.value).toBe('OBX 2: OBX-5 not a number');
    expect(lastError.error).toMatchObject({
      code: 'not_a_number',
      params: { probe_code: sample.code, analyte: 'ast', field: 'OBX-5' },
      detail: 'OBX 2: OBX-5 not a number',
      control_id: controlId,
    });
    expect(msa(res.body)).not.toContain(sample.code);
    // The refused message names its samples, for their pages.
    const [refused] = await t.db
      .select({ code: labMessages.error_code, codes: labMessages.probe_codes })
      .from(labMessages)
      .where(eq(labMessages.control_id, controlId));
    expect(refused).toEqual({ code: 'not_a_number', codes: [sample.code] });

    // The next accepted message clears it.
    await send(buildFakeOru({ controlId: unique('msg'), samples: [normalPanel(sample.code)] }));
    expect((await readSetting(t.db, 'synevo_last_error_message')).value).toBeNull();
  });

  it('answers AE to a medicine the sample is not tested for, writing nothing', async () => {
    const sample = await sampleOf('M', []);
    const controlId = unique('msg');
    const [medicine] = await t.db.select().from(medicines).where(eq(medicines.id, 7));
    const res = await send(
      buildFakeOru({
        controlId,
        samples: [
          {
            code: sample.code,
            observations: [
              { code: 'ALT', value: 30, unit: 'U/l' },
              { code: medicine!.inn, value: 3, unit: 'ng/ml' },
            ],
          },
        ],
      }),
    );
    expect(msa(res.body)).toMatch(/^MSA\|AE\|/);
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBeNull();
    expect((await messagesWith(controlId)).map((row) => row.status)).toEqual(['rejected']);
  });

  it('answers AE to text that is no HL7 message', async () => {
    const res = await send('hello');
    expect(res.statusCode).toBe(200);
    expect(msa(res.body)).toBe('MSA|AE||unparsable message');
  });

  it('answers AE to control characters and NUL, and 413 to a body over the limit', async () => {
    const sample = await sampleOf();
    const er7 = buildFakeOru({ controlId: unique('msg'), samples: [normalPanel(sample.code)] });
    for (const hostile of [er7.replace(sample.code, `${sample.code}\u0000`), `${er7}\u0007`]) {
      const res = await send(hostile);
      expect(res.statusCode).toBe(200);
      expect(msa(res.body)).toMatch(/^MSA\|AE\|msg-[^|]+\|control characters in the message$/);
    }
    const huge = await send(`${er7}\rNTE|1||${'x'.repeat(HL7_MAX_MESSAGE_BYTES)}`);
    expect(huge.statusCode).toBe(413);
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBeNull();
  });

  it('takes x-application/hl7-v2+er7 and refuses JSON with 415', async () => {
    const sample = await sampleOf();
    const er7 = buildFakeOru({ controlId: unique('msg'), samples: [normalPanel(sample.code)] });
    expect(msa((await send(er7, basic(), 'x-application/hl7-v2+er7')).body)).toMatch(/^MSA\|AA/);
    expect((await send('{}', basic(), 'application/json')).statusCode).toBe(415);
  });

  it('refuses a missing or wrong password with 401 and WWW-Authenticate', async () => {
    const er7 = buildFakeOru({ controlId: unique('msg'), samples: [normalPanel('X')] });
    for (const authorization of [null, basic(LOGIN, 'zle'), basic('inny', PASSWORD), 'Basic !!']) {
      const res = await send(er7, authorization);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    const bearer = await send(er7, `Bearer ${admin.session.token}`);
    expect(bearer.statusCode).toBe(401);
  });

  it('refuses with 403 while the import is switched off, storing nothing', async () => {
    await configure(false);
    try {
      const controlId = unique('msg');
      const res = await send(buildFakeOru({ controlId, samples: [normalPanel('X')] }));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 'results_import_disabled' });
      expect(await messagesWith(controlId)).toHaveLength(0);
    } finally {
      await configure(true);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('stores one of two simultaneous deliveries; both answer AA', async () => {
    const sample = await sampleOf();
    const controlId = unique('msg');
    const er7 = buildFakeOru({ controlId, samples: [normalPanel(sample.code)] });
    const answers = await Promise.all([send(er7), send(er7), send(er7)]);
    expect(answers.map((res) => msa(res.body))).toEqual(Array(3).fill(`MSA|AA|${controlId}|OK`));
    expect(await messagesWith(controlId)).toHaveLength(1);
    const [audits] = await t.db
      .select({ n: count() })
      .from(auditEntries)
      .where(
        and(eq(auditEntries.patient_id, sample.patientId), eq(auditEntries.column_name, 'alt')),
      );
    expect(audits!.n).toBe(1);
  });
});
