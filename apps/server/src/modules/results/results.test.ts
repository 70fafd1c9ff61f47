import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, validationMessage, warsawToday } from '@portal/shared';
import type { Probe } from '@portal/shared';
import { and, count, eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { auditEntries, patients, probes } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { withStoredVersion } from '../../test/versions.js';
import { isFutureDay } from './hand-entry.js';
import { putWithReason } from '../../test/versions.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

async function sampleOf(sex: 'M' | 'K' = 'M', medicineIds: number[] = [7]) {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel(sex) });
  const { id } = await insertProbe(t.db, doctor.session.user.id, patient.id, { medicineIds });
  return { id, patientId: patient.id };
}

/** Saves with the sample's stored version unless the body names one (ADR 018). */
const save = async (id: number, body: unknown, token = doctor.session.token) =>
  putWithReason(t, `/api/probes/${id}/results`, {
    token,
    body: await withStoredVersion(t.db, probes, id, body),
  });
const saved = (res: { json<T>(): T }) => res.json<{ status: string; probe: Probe }>().probe;

async function probeRow(id: number) {
  const [row] = await t.db.select().from(probes).where(eq(probes.id, id));
  return row!;
}
async function auditCount(patientId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(auditEntries)
    .where(eq(auditEntries.patient_id, patientId));
  return row!.n;
}

describe('PUT /api/probes/:id/results', () => {
  it('stores biochemistry, stamps results_at, moves the sample to received and bumps the version', async () => {
    const { id } = await sampleOf();
    const res = await save(id, {
      biochemistry_results: { alt: 50, ast: 20, creatine: 0.9, bilirubine: 0.5 },
    });
    expect(res.statusCode).toBe(200);
    const probe = saved(res);
    expect(res.json<{ status: string }>().status).toBe('success');
    expect(probe.biochemistry_results).toEqual({
      alt: 50,
      ast: 20,
      creatine: 0.9,
      bilirubine: 0.5,
    });
    expect(probe.status).toBe('received');
    expect(probe.results_at).not.toBeNull();
    expect(probe.version).toBe(2);
    expect(probe.results_out_of_norm).toEqual([]);
  });

  it('keeps what the body leaves out and clears what it sets to null', async () => {
    const { id } = await sampleOf();
    await save(id, { biochemistry_results: { alt: 50, ast: 20 } });
    const kept = saved(await save(id, { biochemistry_results: { ast: null } }));
    expect(kept.biochemistry_results).toEqual({
      alt: 50,
      ast: null,
      creatine: null,
      bilirubine: null,
    });
    // Clearing alone stores no result: status and the results stamp stay as they were.
    const before = await probeRow(id);
    const cleared = saved(await save(id, { biochemistry_results: { alt: null } }));
    expect(cleared.biochemistry_results.alt).toBeNull();
    expect(cleared.results_at).toBe(before.results_at!.toISOString());
  });

  it('leaves a collected sample collected when only clearing', async () => {
    const { id } = await sampleOf();
    const probe = saved(await save(id, { biochemistry_results: { alt: null } }));
    expect(probe.status).toBe('collected');
    expect(probe.results_at).toBeNull();
  });

  it('stores concentrations of the sample’s medicines with hours and the day of analysis', async () => {
    const { id } = await sampleOf('M', [7, 1]);
    const res = await save(id, {
      concentrations_results: {
        hours: 12,
        date_of_analysis: '2026-11-20',
        concentrations: [{ medicine_id: 7, value: 25 }],
      },
    });
    expect(res.statusCode).toBe(200);
    const probe = saved(res);
    expect(probe.concentrations_results).toEqual({
      hours: 12,
      date_of_analysis: '2026-11-20',
      concentrations: [
        { medicine_id: 1, value: null },
        { medicine_id: 7, value: 25 },
      ],
    });
    // Amlodipine 6–18 ng/ml for both sexes: 25 is out of norm.
    expect(probe.concentration_range.medicine_7).toEqual({
      unit: 'ng/ml',
      min: 6,
      max: 18,
      below: null,
    });
    expect(probe.results_out_of_norm).toEqual(['medicine_7']);
    expect(probe.status).toBe('received');
  });

  it('flags by sex: ALT 50 is normal for a man and out of norm for a woman', async () => {
    const man = await sampleOf('M');
    const woman = await sampleOf('K');
    const body = { biochemistry_results: { alt: 50 } };
    const his = saved(await save(man.id, body));
    const hers = saved(await save(woman.id, body));
    expect(his.patient_sex).toBe('M');
    expect(his.concentration_range.alt).toMatchObject({ min: 9, max: 59 });
    expect(his.results_out_of_norm).toEqual([]);
    expect(hers.patient_sex).toBe('K');
    expect(hers.concentration_range.alt).toMatchObject({ min: 8, max: 41 });
    expect(hers.results_out_of_norm).toEqual(['alt']);
  });

  it('flags bilirubin 1.2 as out of norm (the limit is "< 1.2") and 1.19 as normal', async () => {
    const { id } = await sampleOf();
    const at = saved(await save(id, { biochemistry_results: { bilirubine: 1.2 } }));
    expect(at.concentration_range.bilirubine).toEqual({
      unit: 'mg/dl',
      min: null,
      max: null,
      below: 1.2,
    });
    expect(at.results_out_of_norm).toEqual(['bilirubine']);
    const below = saved(await save(id, { biochemistry_results: { bilirubine: 1.19 } }));
    expect(below.results_out_of_norm).toEqual([]);
  });

  it('audits a correction ALT 50 → 60 with the old and new value and the actor', async () => {
    const { id, patientId } = await sampleOf();
    await save(id, { biochemistry_results: { alt: 50 } });
    await save(id, { biochemistry_results: { alt: 60 } }, admin.session.token);
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, patientId),
          eq(auditEntries.entity_name, 'probes'),
          eq(auditEntries.column_name, 'alt'),
        ),
      )
      .orderBy(auditEntries.id);
    expect(entries.map((e) => [Number(e.old_value), Number(e.new_value), e.user_id])).toEqual([
      [0, 50, doctor.session.user.id],
      [50, 60, admin.session.user.id],
    ]);
  });

  it('audits a concentration on probe_medicines', async () => {
    const { id, patientId } = await sampleOf();
    await save(id, { concentrations_results: { concentrations: [{ medicine_id: 7, value: 9 }] } });
    const [entry] = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, patientId),
          eq(auditEntries.entity_name, 'probe_medicines'),
          eq(auditEntries.column_name, 'concentration'),
        ),
      );
    expect(entry).toMatchObject({ new_value: '9', user_id: doctor.session.user.id });
  });

  it('answers 409 conflict for a stale version and changes nothing', async () => {
    const { id } = await sampleOf();
    const first = saved(await save(id, { biochemistry_results: { alt: 10 }, version: 1 }));
    expect(first.version).toBe(2);
    const stale = await save(id, { biochemistry_results: { alt: 99 }, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ status: 'conflict' });
    expect((await probeRow(id)).alt).toBe(10);
  });

  it("answers 404 for another unit's sample and a missing one", async () => {
    const { id } = await sampleOf();
    const body = { biochemistry_results: { alt: 10 } };
    expect((await save(id, body, otherDoctor.session.token)).statusCode).toBe(404);
    expect((await save(2_000_000_000, body)).statusCode).toBe(404);
    expect((await probeRow(id)).alt).toBeNull();
  });

  it("answers 409 patient_deleted for a deleted patient's sample", async () => {
    const { id, patientId } = await sampleOf();
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.update(patients).set({ deleted_at: new Date() }).where(eq(patients.id, patientId)),
    );
    const res = await save(id, { biochemistry_results: { alt: 10 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'patient_deleted' });
  });

  describe('refuses bad input with 422 and changes nothing, audit included', () => {
    const raw = (json: string) => ({ raw: json });
    const cases: [string, unknown][] = [
      ['a negative value', { biochemistry_results: { alt: -1 } }],
      ['"NaN"', { biochemistry_results: { alt: 'NaN' } }],
      ['"Infinity"', { biochemistry_results: { ast: 'Infinity' } }],
      ['raw 1e400', raw('{"biochemistry_results":{"alt":1e400}}')],
      ['raw -1e400', raw('{"biochemistry_results":{"bilirubine":-1e400}}')],
      ['text', { biochemistry_results: { creatine: 'dużo' } }],
      ['an implausible value', { biochemistry_results: { creatine: 1e9 } }],
      ['negative hours', { concentrations_results: { hours: -2 } }],
      ['a bad day', { concentrations_results: { date_of_analysis: '2026-02-30' } }],
      [
        'an unknown medicine',
        { concentrations_results: { concentrations: [{ medicine_id: 3, value: 5 }] } },
      ],
      [
        'a medicine named twice',
        {
          concentrations_results: {
            concentrations: [
              { medicine_id: 7, value: 5 },
              { medicine_id: 7, value: 6 },
            ],
          },
        },
      ],
      [
        'a negative concentration',
        raw('{"concentrations_results":{"concentrations":[{"medicine_id":7,"value":-0.5}]}}'),
      ],
      ['nothing at all', {}],
      ['an array', [1, 2]],
    ];
    it.each(cases)('%s', async (_name, body) => {
      const { id, patientId } = await sampleOf();
      await save(id, { biochemistry_results: { alt: 30 } });
      const before = await probeRow(id);
      const audited = await auditCount(patientId);
      const res =
        body && typeof body === 'object' && 'raw' in body
          ? await putWithReason(t, `/api/probes/${id}/results`, {
              token: doctor.session.token,
              body: (body as { raw: string }).raw,
              headers: { 'content-type': 'application/json' },
            })
          : await save(id, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_error' });
      expect(await probeRow(id)).toEqual(before);
      expect(await auditCount(patientId)).toBe(audited);
    });

    it('names the field of an unknown medicine', async () => {
      const { id } = await sampleOf();
      const res = await save(id, {
        concentrations_results: { concentrations: [{ medicine_id: 3, value: 5 }] },
      });
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
        'concentrations_results.concentrations': [validationMessage('invalid')],
      });
    });
  });

  it('refuses a day of analysis after today in Warsaw with future_date, and takes today', async () => {
    const { id, patientId } = await sampleOf();
    const today = warsawToday();
    const before = await probeRow(id);
    const audited = await auditCount(patientId);
    for (const day of [addDays(today, 1), addDays(today, 400), '9999-12-31']) {
      const res = await save(id, { concentrations_results: { hours: 2, date_of_analysis: day } });
      expect(res.statusCode, day).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { 'concentrations_results.date_of_analysis': [validationMessage('future_date')] },
      });
    }
    expect(await probeRow(id)).toEqual(before);
    expect(await auditCount(patientId)).toBe(audited);
    const ok = await save(id, { concentrations_results: { hours: 2, date_of_analysis: today } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(saved(ok).concentrations_results.date_of_analysis).toBe(today);
  });

  it('allows a few minutes of clock skew around midnight in Warsaw', () => {
    // 23:57 in Warsaw (CET, UTC+1) on 14 January: a client already on the 15th is not refused.
    expect(isFutureDay('2027-01-15', new Date('2027-01-14T22:57:00Z'))).toBe(false);
    expect(isFutureDay('2027-01-15', new Date('2027-01-14T22:50:00Z'))).toBe(true);
    expect(isFutureDay('2027-01-16', new Date('2027-01-14T22:57:00Z'))).toBe(true);
    // Summer time (UTC+2): 23:30 in Warsaw is 21:30 UTC.
    expect(isFutureDay('2027-07-15', new Date('2027-07-14T21:30:00Z'))).toBe(true);
    expect(isFutureDay('2027-07-14', new Date('2027-07-14T21:30:00Z'))).toBe(false);
    expect(isFutureDay('2027-07-13', new Date('2027-07-13T00:00:00Z'))).toBe(false);
  });

  it('lets a second sample of the same patient change independently', async () => {
    const first = await sampleOf();
    const { id: second } = await insertProbe(t.db, doctor.session.user.id, first.patientId, {
      medicineIds: [7],
    });
    await save(first.id, { biochemistry_results: { alt: 11 } });
    const rows = await t.db
      .select({ id: probes.id, alt: probes.alt })
      .from(probes)
      .where(inArray(probes.id, [first.id, second]))
      .orderBy(probes.id);
    expect(rows.map((row) => row.alt)).toEqual([11, null]);
  });
});
