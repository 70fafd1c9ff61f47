import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, warsawToday } from '@portal/shared';
import type { AlertPage, AlertSaved, SafetyAlert } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { auditEntries, probes, safetyAlerts, visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { withStoredVersion } from '../../test/versions.js';
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

async function sampleOf(sex: 'M' | 'K' = 'M') {
  const patient = await registerPatient(t, doctor, { pesel: freshPesel(sex) });
  const { id } = await insertProbe(t.db, doctor.session.user.id, patient.id, {
    medicineIds: [7],
  });
  return { id, patientId: patient.id };
}
/** PUTs name the stored version unless the body names one (ADR 018). */
const saveResults = async (id: number, body: unknown, token = doctor.session.token) =>
  putWithReason(t, `/api/probes/${id}/results`, {
    token,
    body: await withStoredVersion(t.db, probes, id, body),
  });
const list = (query: Record<string, string> = {}, token = doctor.session.token) =>
  t.request('GET', '/api/alerts', { token, query });
const acknowledge = async (id: number, body: unknown = {}, token = doctor.session.token) =>
  t.request('PUT', `/api/alerts/${id}/acknowledge`, {
    token,
    body: await withStoredVersion(t.db, safetyAlerts, id, body),
  });

async function alertsOf(where: { probe_id?: number; visit_id?: number }) {
  return t.db
    .select()
    .from(safetyAlerts)
    .where(
      where.probe_id !== undefined
        ? eq(safetyAlerts.probe_id, where.probe_id)
        : eq(safetyAlerts.visit_id, where.visit_id!),
    )
    .orderBy(safetyAlerts.id);
}

/** Hy's law for a man: ALT 200 > 3 × 59, bilirubin 3 > 2 × 1.2. */
const liverInjury = { biochemistry_results: { alt: 200, bilirubine: 3 } };

describe("Hy's law on a sample's results", () => {
  it('opens one alert with the values and limits, and re-saving refreshes it instead of adding one', async () => {
    const { id, patientId } = await sampleOf();
    expect((await saveResults(id, liverInjury)).statusCode).toBe(200);
    let rows = await alertsOf({ probe_id: id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patient_id: patientId,
      rule: 'hys_law',
      visit_id: null,
      acknowledged_at: null,
      details: { alt: 200, alt_uln: 59, ast_uln: 34, bilirubine: 3, bilirubine_uln: 1.2 },
      version: 1,
    });

    await saveResults(id, { biochemistry_results: { alt: 250 } });
    rows = await alertsOf({ probe_id: id });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ alt: 250 });
    expect(rows[0]!.version).toBe(2);

    // The same values again change nothing, not even the version.
    await saveResults(id, { biochemistry_results: { alt: 250 } });
    rows = await alertsOf({ probe_id: id });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.version).toBe(2);
  });

  it('fires on AST too, and not at or below the limits', async () => {
    const ast = await sampleOf();
    await saveResults(ast.id, { biochemistry_results: { ast: 103, bilirubine: 2.5 } });
    expect(await alertsOf({ probe_id: ast.id })).toHaveLength(1);

    const quiet = await sampleOf();
    // 3 × 59 = 177 and 2 × 1.2 = 2.4 exactly: "greater than" is needed.
    await saveResults(quiet.id, { biochemistry_results: { alt: 177, bilirubine: 5 } });
    await saveResults(quiet.id, { biochemistry_results: { alt: 500, bilirubine: 2.4 } });
    expect(await alertsOf({ probe_id: quiet.id })).toHaveLength(0);
  });

  it("uses the woman's ULN: ALT 130 > 3 × 41 fires for her, not for him", async () => {
    const her = await sampleOf('K');
    const him = await sampleOf('M');
    const body = { biochemistry_results: { alt: 130, bilirubine: 3 } };
    await saveResults(her.id, body);
    await saveResults(him.id, body);
    expect(await alertsOf({ probe_id: her.id })).toHaveLength(1);
    expect(await alertsOf({ probe_id: him.id })).toHaveLength(0);
  });
});

describe('PUT /api/alerts/:id/acknowledge', () => {
  it('acknowledges with the actor and comment, audited; a second time answers 409; a new breach opens a new alert', async () => {
    const { id, patientId } = await sampleOf();
    await saveResults(id, liverInjury);
    const [alert] = await alertsOf({ probe_id: id });

    const res = await acknowledge(alert!.id, { comment: 'Kontrola za tydzień', version: 1 });
    expect(res.statusCode).toBe(200);
    const body = res.json<AlertSaved>();
    expect(body.status).toBe('success');
    expect(body.alert).toMatchObject({
      id: alert!.id,
      acknowledged_by: doctor.session.user.id,
      acknowledged_by_name: `${doctor.doctor.firstname} ${doctor.doctor.surname}`,
      acknowledge_comment: 'Kontrola za tydzień',
      version: 2,
    });
    expect(body.alert.acknowledged_at).not.toBeNull();

    const audited = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.patient_id, patientId),
          eq(auditEntries.entity_name, 'safety_alerts'),
          eq(auditEntries.column_name, 'acknowledge_comment'),
        ),
      );
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      new_value: 'Kontrola za tydzień',
      user_id: doctor.session.user.id,
    });

    const again = await acknowledge(alert!.id, {}, admin.session.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 'already_acknowledged' });

    await saveResults(id, { biochemistry_results: { alt: 300 } });
    const rows = await alertsOf({ probe_id: id });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ acknowledged_at: null, details: { alt: 300 } });
  });

  it('answers 409 conflict for a stale version and leaves the alert open', async () => {
    const { id } = await sampleOf();
    await saveResults(id, liverInjury);
    await saveResults(id, { biochemistry_results: { alt: 260 } });
    const [alert] = await alertsOf({ probe_id: id });
    const res = await acknowledge(alert!.id, { version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'conflict' });
    expect((await alertsOf({ probe_id: id }))[0]!.acknowledged_at).toBeNull();
  });

  it("answers 404 for another unit's alert and a missing one; 422 for a too long comment", async () => {
    const { id } = await sampleOf();
    await saveResults(id, liverInjury);
    const [alert] = await alertsOf({ probe_id: id });
    expect((await acknowledge(alert!.id, {}, otherDoctor.session.token)).statusCode).toBe(404);
    expect((await acknowledge(2_000_000_000)).statusCode).toBe(404);
    expect((await acknowledge(alert!.id, { comment: 'x'.repeat(1001) })).statusCode).toBe(422);
    expect((await alertsOf({ probe_id: id }))[0]!.acknowledged_at).toBeNull();
  });
});

describe('GET /api/alerts', () => {
  it("lists newest first, filters by status and patient, and shows a doctor only the own unit's", async () => {
    const first = await sampleOf();
    const second = await sampleOf();
    await saveResults(first.id, liverInjury);
    await saveResults(second.id, liverInjury);
    const [toAcknowledge] = await alertsOf({ probe_id: first.id });
    await acknowledge(toAcknowledge!.id);

    const mine = list({ patientIds: `${first.patientId},${second.patientId}` });
    const page = (await mine).json<AlertPage>();
    expect(page.total).toBe(2);
    expect(page.total_kind).toBe('exact');
    expect(page.data.map((a: SafetyAlert) => a.patient_id)).toEqual([
      second.patientId,
      first.patientId,
    ]);
    expect(page.data[0]).toMatchObject({
      rule: 'hys_law',
      probe_id: second.id,
      patient: { firstname: 'Tadeusz', surname: 'Mazur' },
      acknowledged_at: null,
      acknowledged_by_name: null,
    });

    const open = (
      await list({ status: 'open', patientIds: `${first.patientId},${second.patientId}` })
    ).json<AlertPage>();
    expect(open.data.map((a) => a.probe_id)).toEqual([second.id]);
    const done = (
      await list({ status: 'acknowledged', patientIds: String(first.patientId) })
    ).json<AlertPage>();
    expect(done.data.map((a) => a.probe_id)).toEqual([first.id]);

    const ascending = (
      await list({
        order_direction: 'asc',
        patientIds: `${first.patientId},${second.patientId}`,
      })
    ).json<AlertPage>();
    expect(ascending.data.map((a) => a.patient_id)).toEqual([first.patientId, second.patientId]);

    const theirs = (await list({}, otherDoctor.session.token)).json<AlertPage>();
    expect(theirs.data).toEqual([]);
    expect(theirs.total).toBe(0);
    const everyone = (await list({}, admin.session.token)).json<AlertPage>();
    expect(everyone.data.map((a) => a.probe_id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
  });

  it('refuses a bad status with 422', async () => {
    expect((await list({ status: 'closed' })).statusCode).toBe(422);
  });
});

describe('QTcF rules through PUT /api/visits/:id/results', () => {
  let slot = 0;
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

  async function visitOn(date: string, patientId: number) {
    slot += 1;
    const [row] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
      tx
        .insert(visits)
        .values({
          patient_id: patientId,
          unit_id: doctor.doctor.unit_id,
          doctor_id: doctor.doctor.id,
          date,
          started_at: clock(slot),
          ended_at: clock(slot + 1),
        })
        .returning({ id: visits.id }),
    );
    return row!.id;
  }
  // With RR 1000 ms (1 s) QTcF equals QT.
  const recordQt = (visitId: number, qt: number) =>
    withStoredVersion(t.db, visits, visitId, { isDone: true, results: { qt, rr: 1000 } }).then(
      (body) =>
        putWithReason(t, `/api/visits/${visitId}/results`, { token: doctor.session.token, body }),
    );

  it('opens qtcf_500 above 500 ms, not at 500', async () => {
    const patient = await registerPatient(t, doctor);
    const visit = await visitOn(addDays(warsawToday(), -2), patient.id);
    expect((await recordQt(visit, 500)).statusCode).toBe(200);
    expect(await alertsOf({ visit_id: visit })).toHaveLength(0);
    await recordQt(visit, 520);
    const rows = await alertsOf({ visit_id: visit });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      rule: 'qtcf_500',
      patient_id: patient.id,
      probe_id: null,
      details: { qtcfra: 520, limit_ms: 500 },
    });
    // Recorded again with the same ECG: still one alert.
    await recordQt(visit, 520);
    expect(await alertsOf({ visit_id: visit })).toHaveLength(1);
  });

  it('opens qtcf_delta_60 more than 60 ms above the first visit with an ECG', async () => {
    const patient = await registerPatient(t, doctor);
    const baseline = await visitOn(addDays(warsawToday(), -60), patient.id);
    const noEcg = await visitOn(addDays(warsawToday(), -70), patient.id);
    const later = await visitOn(addDays(warsawToday(), -30), patient.id);
    const latest = await visitOn(addDays(warsawToday(), -1), patient.id);
    await recordQt(baseline, 400);
    await putWithReason(t, `/api/visits/${noEcg}/results`, {
      token: doctor.session.token,
      body: { isDone: true, results: {}, version: 1 },
    });
    // The first visit itself has no baseline to compare with.
    expect(await alertsOf({ visit_id: baseline })).toHaveLength(0);
    await recordQt(later, 460);
    expect(await alertsOf({ visit_id: later })).toHaveLength(0);
    await recordQt(latest, 461);
    const rows = await alertsOf({ visit_id: latest });
    expect(rows.map((row) => [row.rule, row.details])).toEqual([
      ['qtcf_delta_60', { qtcfra: 461, baseline_qtcfra: 400, delta_ms: 61, limit_ms: 60 }],
    ]);
  });

  it('lists a visit alert for the doctor and lets it be acknowledged', async () => {
    const patient = await registerPatient(t, doctor);
    const visit = await visitOn(addDays(warsawToday(), -2), patient.id);
    await recordQt(visit, 530);
    const page = (await list({ patientIds: String(patient.id) })).json<AlertPage>();
    expect(page.data.map((a) => [a.rule, a.visit_id])).toEqual([['qtcf_500', visit]]);
    expect((await acknowledge(page.data[0]!.id)).statusCode).toBe(200);
    expect(
      (await list({ patientIds: String(patient.id), status: 'open' })).json<AlertPage>().total,
    ).toBe(0);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('keeps one open alert when 20 saves of the same breach arrive at once', async () => {
    const { id } = await sampleOf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        saveResults(id, { biochemistry_results: { alt: 200 + i, bilirubine: 3 } }),
      ),
    );
    // All name the version they read (ADR 018): one save wins, the others are told of it.
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(19);
    const rows = await alertsOf({ probe_id: id });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.acknowledged_at).toBeNull();
  });

  it('lets exactly one of 20 simultaneous acknowledgements through', async () => {
    const { id } = await sampleOf();
    await saveResults(id, liverInjury);
    const [alert] = await alertsOf({ probe_id: id });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => acknowledge(alert!.id, { comment: `Nr ${i}` })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(a.json()).toEqual({ status: 'already_acknowledged' });
  });
});
