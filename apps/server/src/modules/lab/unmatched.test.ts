import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchPreview, Probe, UnmatchedPage, UnmatchedSaved } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import {
  auditEntries,
  importBatches,
  patients,
  probeMedicines,
  probes,
  unmatchedResults,
} from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { labRangeOf } from './unmatched-service.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

async function sampleOf(
  sex: 'M' | 'K' = 'M',
  medicineIds: number[] = [7],
  values: Partial<typeof probes.$inferInsert> = {},
  by: ReadyDoctor = doctor,
) {
  const patient = await registerPatient(t, by, {
    pesel: freshPesel(sex),
    firstname: 'Łucja',
    surname: 'Żak',
  });
  const probe = await insertProbe(t.db, by.session.user.id, patient.id, {
    medicineIds,
    ...values,
  });
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patient.id));
  return { ...probe, patientId: patient.id, birthDate: row!.birth_date };
}

/** An unmatched row as the connector (or an import) leaves it; the system is the actor. */
async function unmatched(
  overrides: Partial<typeof unmatchedResults.$inferInsert> = {},
): Promise<number> {
  return inTransaction(t.db, null, async (tx) => {
    const [row] = await tx
      .insert(unmatchedResults)
      .values({
        probe_code: 'NIEZNANY1',
        analyte: 'alt',
        value: 200,
        unit: 'U/l',
        lab_range: '10-40',
        date_of_analysis: '2026-11-20',
        patient_sex: 'M',
        patient_birth_date: '1971-03-09',
        reason: 'no_probe',
        raw: { 'OBX-3': 'ALT', 'OBX-5': '200', 'OBR-3': 'NIEZNANY1' },
        ...overrides,
      })
      .returning({ id: unmatchedResults.id });
    return row!.id;
  });
}

const list = (query: Record<string, string> = {}, token = admin.session.token) =>
  t.request('GET', '/api/lab/unmatched', { token, query });
const match = (id: number, body: unknown, token = admin.session.token) =>
  t.request('PUT', `/api/lab/unmatched/${id}`, { token, body });
const discard = (id: number, body: unknown, token = admin.session.token) =>
  t.request('PUT', `/api/lab/unmatched/${id}/discard`, { token, body });
const preview = (id: number, probeId: unknown, token = admin.session.token) =>
  t.request('GET', `/api/lab/unmatched/${id}/preview`, {
    token,
    query: { probe_id: String(probeId) },
  });
const probeOf = async (id: number) =>
  (await t.request('GET', `/api/probes/${id}`, { token: admin.session.token })).json<Probe>();

describe('the unmatched results list', () => {
  it('answers one status at a time, open by default, newest first, with exact totals', async () => {
    const older = await unmatched({ probe_code: 'LISTA-A' });
    const newer = await unmatched({ probe_code: 'LISTA-B', reason: 'sex_mismatch' });
    const gone = await unmatched({ probe_code: 'LISTA-C' });
    expect((await discard(gone, { reason: 'Duplikat', version: 1 })).statusCode).toBe(200);

    const open = (await list()).json<UnmatchedPage>();
    const ids = open.data.map((row) => row.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(ids).not.toContain(gone);
    expect(open.total_kind).toBe('exact');
    expect(open.data.find((row) => row.id === newer)).toMatchObject({
      source: 'hl7',
      probe_code: 'LISTA-B',
      analyte: 'alt',
      value: 200,
      unit: 'U/l',
      lab_range: '10-40',
      patient_sex: 'M',
      patient_birth_date: '1971-03-09',
      reason: 'sex_mismatch',
      raw: { 'OBX-3': 'ALT' },
      status: 'open',
      probe_id: null,
      resolved_at: null,
      version: 1,
    });

    const discarded = (await list({ status: 'discarded' })).json<UnmatchedPage>();
    expect(discarded.data.map((row) => row.id)).toContain(gone);
    expect(discarded.data.every((row) => row.status === 'discarded')).toBe(true);
    expect((await list({ status: 'lost' })).statusCode).toBe(422);
  });

  it('is for administrators only: a doctor gets 403, nobody signed in 401', async () => {
    expect((await list({}, doctor.session.token)).statusCode).toBe(403);
    const id = await unmatched();
    const sample = await sampleOf();
    expect(
      (await match(id, { probe_id: sample.id, version: 1 }, doctor.session.token)).statusCode,
    ).toBe(403);
    expect((await discard(id, { reason: 'x', version: 1 }, doctor.session.token)).statusCode).toBe(
      403,
    );
    expect((await t.request('GET', '/api/lab/unmatched')).statusCode).toBe(401);
  });
});

describe('matching a result to a sample', () => {
  it('stores the value on the sample with its source, the lab range and the flags, audited under the patient', async () => {
    const sample = await sampleOf('M');
    const id = await unmatched({ value: 200, lab_range: '10-40' });
    const res = await match(id, { probe_id: sample.id, version: 1 });
    expect(res.statusCode).toBe(200);
    const saved = res.json<UnmatchedSaved>();
    expect(saved.result).toMatchObject({
      id,
      status: 'matched',
      probe_id: sample.id,
      version: 2,
    });
    expect(saved.result.resolved_at).not.toBeNull();

    const probe = await probeOf(sample.id);
    expect(probe.biochemistry_results.alt).toBe(200);
    expect(probe.status).toBe('received');
    expect(probe.results_out_of_norm).toContain('alt');
    const [stored] = await t.db
      .select({ source: probes.results_source, ranges: probes.lab_ranges })
      .from(probes)
      .where(eq(probes.id, sample.id));
    expect(stored!.source).toBe('hl7');
    expect(stored!.ranges?.alt).toMatchObject({ text: '10-40', min: 10, max: 40 });

    const [row] = await t.db.select().from(unmatchedResults).where(eq(unmatchedResults.id, id));
    expect(row).toMatchObject({
      patient_id: sample.patientId,
      resolved_by: admin.session.user.id,
    });
    const audit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'unmatched_results'),
          eq(auditEntries.entity_id, String(id)),
        ),
      );
    expect(audit.find((e) => e.column_name === 'status' && e.operation === 'update')).toMatchObject(
      {
        user_id: admin.session.user.id,
        patient_id: sample.patientId,
        old_value: 'open',
        new_value: 'matched',
      },
    );
    const probeAudit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probes'),
          eq(auditEntries.entity_id, String(sample.id)),
          eq(auditEntries.column_name, 'alt'),
        ),
      )
      .orderBy(auditEntries.id);
    expect(probeAudit.at(-1)).toMatchObject({ user_id: admin.session.user.id, new_value: '200' });
  });

  it("gives an imported row's value the source 'import' and a concentration to the sample's medicine", async () => {
    const sample = await sampleOf('M', [7]);
    const batch = await inTransaction(t.db, admin.session.user.id, async (tx) => {
      const [row] = await tx
        .insert(importBatches)
        .values({ mode: 'results', files: [], counts: {}, created_by: admin.session.user.id })
        .returning({ id: importBatches.id });
      return row!.id;
    });
    const id = await unmatched({
      import_batch_id: batch,
      analyte: 'medicine_7',
      value: 12.5,
      unit: 'ng/ml',
      lab_range: null,
      hours: 12,
    });
    expect((await list()).json<UnmatchedPage>().data.find((r) => r.id === id)?.source).toBe(
      'import',
    );
    expect((await match(id, { probe_id: sample.id, version: 1 })).statusCode).toBe(200);
    const [medicine] = await t.db
      .select({ concentration: probeMedicines.concentration })
      .from(probeMedicines)
      .where(and(eq(probeMedicines.probe_id, sample.id), eq(probeMedicines.medicine_id, 7)));
    expect(Number(medicine!.concentration)).toBe(12.5);
    const [stored] = await t.db
      .select({ source: probes.results_source })
      .from(probes)
      .where(eq(probes.id, sample.id));
    expect(stored!.source).toBe('import');
  });

  it('refuses a medicine the sample is not tested for (422) and leaves the row open', async () => {
    const sample = await sampleOf('M', []);
    const id = await unmatched({ analyte: 'medicine_7', unit: 'ng/ml', value: 10 });
    expect((await match(id, { probe_id: sample.id, version: 1 })).statusCode).toBe(422);
    const [row] = await t.db.select().from(unmatchedResults).where(eq(unmatchedResults.id, id));
    expect(row!.status).toBe('open');
    expect(row!.probe_id).toBeNull();
  });

  it('answers 404 for an unknown sample or row, 409 already_resolved the second time, conflict for a stale version', async () => {
    const sample = await sampleOf();
    const id = await unmatched();
    expect((await match(id, { probe_id: 999999, version: 1 })).statusCode).toBe(404);
    expect((await match(999999, { probe_id: sample.id, version: 1 })).statusCode).toBe(404);
    expect((await match(id, { probe_id: sample.id, version: 7 })).json()).toEqual({
      status: 'conflict',
    });
    expect((await match(id, { probe_id: sample.id, version: 1 })).statusCode).toBe(200);
    const again = await match(id, { probe_id: sample.id, version: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'already_resolved' });
    const late = await discard(id, { reason: 'Za późno', version: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ status: 'already_resolved' });
    expect((await match(id, {})).statusCode).toBe(422);
  });
  it("refuses a deleted patient's sample (409 patient_deleted) and leaves the row open", async () => {
    const sample = await sampleOf();
    const deleted = await t.request('DELETE', `/api/patients/${sample.patientId}`, {
      token: admin.session.token,
    });
    expect(deleted.statusCode).toBe(200);
    const id = await unmatched();
    const res = await match(id, { probe_id: sample.id, version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'patient_deleted' });
    const [row] = await t.db.select().from(unmatchedResults).where(eq(unmatchedResults.id, id));
    expect(row!.status).toBe('open');
  });
});

describe('matching with the laboratory patient beside the sample patient (issue 21)', () => {
  it("answers the laboratory's patient beside the sample's, the disagreements and the values it would replace", async () => {
    const sample = await sampleOf('K', [7], { alt: '30' as never });
    const id = await unmatched({
      value: 200,
      patient_sex: 'M',
      patient_birth_date: '1971-03-09',
      patient_firstname: 'LUCJA',
      patient_surname: 'Nowak',
    });
    expect((await list()).json<UnmatchedPage>().data.find((r) => r.id === id)).toMatchObject({
      patient_firstname: 'LUCJA',
      patient_surname: 'Nowak',
    });
    const res = await preview(id, sample.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<MatchPreview>()).toEqual({
      probe: { id: sample.id, code: sample.code },
      lab_patient: {
        sex: 'M',
        birth_date: '1971-03-09',
        firstname: 'LUCJA',
        surname: 'Nowak',
      },
      sample_patient: {
        sex: 'K',
        birth_date: sample.birthDate,
        firstname: 'Łucja',
        surname: 'Żak',
      },
      // "LUCJA" is "Łucja" as people read it; the surname is another.
      mismatches: ['sex', 'birth_date', 'name'],
      replaces: [{ analyte: 'alt', current: 30, incoming: 200 }],
    });
    // The same patient, nothing on the sample yet: no disagreement, nothing replaced.
    const empty = await sampleOf('M');
    const same = await unmatched({
      value: 10,
      patient_sex: 'M',
      patient_birth_date: empty.birthDate,
      patient_firstname: 'Lucja',
      patient_surname: 'ŻAK',
    });
    expect((await preview(same, empty.id)).json<MatchPreview>()).toMatchObject({
      mismatches: [],
      replaces: [],
    });
    // What was not sent is not compared.
    const unsent = await unmatched({ patient_sex: null, patient_birth_date: null });
    expect((await preview(unsent, empty.id)).json<MatchPreview>()).toMatchObject({
      lab_patient: { sex: null, birth_date: null, firstname: null, surname: null },
      mismatches: [],
    });
  });

  it('names a drug level and its hours among the values it would replace', async () => {
    const sample = await sampleOf('M', [7], { concentration_hours: '6' as never });
    await t.db
      .update(probeMedicines)
      .set({ concentration: '4.5' as never })
      .where(eq(probeMedicines.probe_id, sample.id));
    const id = await unmatched({ analyte: 'medicine_7', value: 12.5, unit: 'ng/ml', hours: 12 });
    expect((await preview(id, sample.id)).json<MatchPreview>().replaces).toEqual([
      { analyte: 'medicine_7', current: 4.5, incoming: 12.5 },
      { analyte: 'hours', current: 6, incoming: 12 },
    ]);
  });

  it('answers 404 for an unknown result or sample, 409 for a resolved one, 422 without a sample, 401 and 403', async () => {
    const sample = await sampleOf();
    const id = await unmatched();
    expect((await preview(999999, sample.id)).statusCode).toBe(404);
    expect((await preview(id, 999999)).statusCode).toBe(404);
    expect((await preview(id, 'x')).statusCode).toBe(422);
    expect(
      (await t.request('GET', `/api/lab/unmatched/${id}/preview`, { token: admin.session.token }))
        .statusCode,
    ).toBe(422);
    expect(
      (await t.request('GET', `/api/lab/unmatched/${id}/preview`, { query: { probe_id: '1' } }))
        .statusCode,
    ).toBe(401);
    // A doctor, even for a sample of the own unit, and a doctor of another unit: 403.
    expect((await preview(id, sample.id, doctor.session.token)).statusCode).toBe(403);
    const other = await t.readyDoctor((await t.unit()).id);
    const theirs = await sampleOf('M', [7], {}, other);
    expect((await preview(id, theirs.id, other.session.token)).statusCode).toBe(403);
    expect((await preview(id, sample.id, other.session.token)).statusCode).toBe(403);
    expect((await match(id, { probe_id: sample.id }, other.session.token)).statusCode).toBe(403);
    expect((await discard(id, { reason: 'x' })).statusCode).toBe(200);
    expect((await preview(id, sample.id)).json()).toEqual({ status: 'already_resolved' });
  });

  it('never overwrites an existing value without replace: true (409 would_replace, nothing changed)', async () => {
    const sample = await sampleOf('M', [7], { alt: '30' as never });
    const before = await probeOf(sample.id);
    const id = await unmatched({ value: 200 });
    const refused = await match(id, { probe_id: sample.id, version: 1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      status: 'would_replace',
      replaces: [{ analyte: 'alt', current: 30, incoming: 200 }],
    });
    const after = await probeOf(sample.id);
    expect(after.biochemistry_results.alt).toBe(30);
    expect(after.version).toBe(before.version);
    const [row] = await t.db.select().from(unmatchedResults).where(eq(unmatchedResults.id, id));
    expect(row).toMatchObject({ status: 'open', probe_id: null, version: 1 });
    // replace: false is no permission either.
    expect((await match(id, { probe_id: sample.id, replace: false })).statusCode).toBe(409);
    expect((await match(id, { probe_id: sample.id, replace: 'yes' })).statusCode).toBe(422);

    const replaced = await match(id, { probe_id: sample.id, version: 1, replace: true });
    expect(replaced.statusCode).toBe(200);
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBe(200);
    const probeAudit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probes'),
          eq(auditEntries.entity_id, String(sample.id)),
          eq(auditEntries.column_name, 'alt'),
        ),
      )
      .orderBy(auditEntries.id);
    expect(probeAudit.at(-1)).toMatchObject({
      user_id: admin.session.user.id,
      old_value: '30',
      new_value: '200',
    });
  });

  it('takes {probe_id} alone when nothing is replaced: an empty analyte, or the same value', async () => {
    const sample = await sampleOf('M', [7], { alt: '55' as never });
    const same = await unmatched({ value: 55 });
    expect((await match(same, { probe_id: sample.id })).statusCode).toBe(200);
    const other = await unmatched({ analyte: 'ast', value: 41 });
    expect((await match(other, { probe_id: sample.id })).statusCode).toBe(200);
    expect((await probeOf(sample.id)).biochemistry_results).toMatchObject({ alt: 55, ast: 41 });
  });
});

describe('discarding a result', () => {
  it('needs a reason (422), then records it, when and who, audited', async () => {
    const id = await unmatched();
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      const res = await discard(id, body);
      expect(res.statusCode).toBe(422);
    }
    const res = await discard(id, { reason: '  Wynik z innego badania ', version: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json<UnmatchedSaved>().result).toMatchObject({
      status: 'discarded',
      discard_reason: 'Wynik z innego badania',
      probe_id: null,
      version: 2,
    });
    const audit = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'unmatched_results'),
          eq(auditEntries.entity_id, String(id)),
        ),
      );
    expect(audit.find((e) => e.column_name === 'discard_reason')).toMatchObject({
      user_id: admin.session.user.id,
      new_value: 'Wynik z innego badania',
    });
  });
});

describe('the laboratory range text', () => {
  it('reads ranges, upper and lower limits, and keeps an unreadable text without bounds', () => {
    expect(labRangeOf('10-40', 'U/l')).toEqual({ text: '10-40', min: 10, max: 40, unit: 'U/l' });
    expect(labRangeOf('0,3 - 1,2', null)).toMatchObject({ min: 0.3, max: 1.2 });
    expect(labRangeOf('<1.2', null)).toMatchObject({ min: null, max: 1.2 });
    expect(labRangeOf('>= 5', null)).toMatchObject({ min: 5, max: null });
    expect(labRangeOf('ujemny', null)).toMatchObject({ min: null, max: null });
    expect(labRangeOf('  ', null)).toBeNull();
    expect(labRangeOf(null, null)).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('lets exactly one of 10 simultaneous matches through and stores the value once', async () => {
    const samples = await Promise.all([sampleOf(), sampleOf()]);
    const id = await unmatched({ value: 55 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => match(id, { probe_id: samples[i % 2]!.id, version: 1 })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const winner = answers.find((a) => a.statusCode === 200)!.json<UnmatchedSaved>().result;
    const alts = await Promise.all(
      samples.map(async (s) => (await probeOf(s.id)).biochemistry_results.alt),
    );
    expect(alts.filter((alt) => alt === 55)).toHaveLength(1);
    expect((await probeOf(winner.probe_id!)).biochemistry_results.alt).toBe(55);
  });

  it('of two matches of one row to a sample holding a value, both with replace, one writes and the other finds it resolved', async () => {
    for (let round = 0; round < 3; round++) {
      const sample = await sampleOf('M', [7], { alt: '30' as never });
      const id = await unmatched({ value: 200 + round });
      const answers = await Promise.all([
        match(id, { probe_id: sample.id, replace: true }),
        match(id, { probe_id: sample.id, replace: true }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)!.json()).toEqual({
        status: 'already_resolved',
      });
      expect((await probeOf(sample.id)).biochemistry_results.alt).toBe(200 + round);
      const audit = await t.db
        .select()
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.entity_name, 'probes'),
            eq(auditEntries.entity_id, String(sample.id)),
            eq(auditEntries.column_name, 'alt'),
          ),
        );
      // Written once: one audited change from 30.
      expect(audit.filter((e) => e.operation === 'update')).toHaveLength(1);
    }
  });

  it('of a match without replace and one with it at once, the one without never overwrites', async () => {
    const sample = await sampleOf('M', [7], { alt: '30' as never });
    const id = await unmatched({ value: 99 });
    const [plain, replacing] = await Promise.all([
      match(id, { probe_id: sample.id }),
      match(id, { probe_id: sample.id, replace: true }),
    ]);
    expect(plain.statusCode).toBe(409);
    expect(['would_replace', 'already_resolved']).toContain(
      plain.json<{ status: string }>().status,
    );
    expect(replacing.statusCode).toBe(200);
    expect((await probeOf(sample.id)).biochemistry_results.alt).toBe(99);
  });
});
