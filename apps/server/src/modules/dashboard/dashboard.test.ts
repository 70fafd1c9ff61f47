import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ANALYTES, warsawDay } from '@portal/shared';
import type { DashboardResponse, ProbeDetail } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { medianOfHistogram, weekOf } from './service.js';

/**
 * The dashboard's figures (ADR 060) against counts of our own, taken from the tables and from the
 * samples' own out-of-norm flags (GET /api/probes/{id}), never from the counters the triggers keep.
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
let unitA: number;
let unitB: number;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
  const result: unknown = await t.db.execute(query);
  return (result as { rows: T[] }).rows;
}

const dashboard = (query: Record<string, string> = {}, token?: string) =>
  t.request('GET', '/api/dashboard', { token, query });

/** Independent counts from the tables for the units (null: all). */
async function expected(unitIds: number[] | null, token: string) {
  const inUnits = (column: string) =>
    unitIds ? sql.raw(`and ${column} in (${unitIds.join(',')})`) : sql``;
  const [patients] = await rows<{ n: number }>(
    sql`select count(*)::int as n from patients p where p.deleted_at is null ${inUnits('p.unit_id')}`,
  );
  const byGroup = await rows<{ group_id: number; count: number }>(
    sql`select i.group_id, count(*)::int as count from patient_inclusions i join patients p on p.id = i.patient_id
        where p.deleted_at is null ${inUnits('p.unit_id')} group by i.group_id order by i.group_id`,
  );
  const recruitment = await rows<{ month: string; count: number }>(
    sql`select to_char(p.created_at at time zone 'Europe/Warsaw', 'YYYY-MM') as month, count(*)::int as count
        from patients p where p.deleted_at is null ${inUnits('p.unit_id')} group by 1 order by 1`,
  );
  const windows = await rows<{ out_of_window: boolean; n: number }>(
    sql`select v.out_of_window, count(*)::int as n from visits v join patients p on p.id = v.patient_id
        where v.cancelled_at is null and p.deleted_at is null ${inUnits('v.unit_id')} group by 1`,
  );
  const week = weekOf(warsawDay());
  const [thisWeek] = await rows<{ n: number }>(
    sql`select count(*)::int as n from visits v join patients p on p.id = v.patient_id
        where v.cancelled_at is null and p.deleted_at is null and v.date between ${week.from} and ${week.to}
        ${inUnits('v.unit_id')}`,
  );
  const byStatus = await rows<{ status: string; count: number }>(
    sql`select s.status, count(*)::int as count from probes s join patients p on p.id = s.patient_id
        where p.deleted_at is null ${inUnits('p.unit_id')} group by 1 order by 1`,
  );
  const [median] = await rows<{ m: string | null }>(
    sql`select percentile_cont(0.5) within group (order by ((s.results_at at time zone 'Europe/Warsaw')::date - s.date_of_sample)) as m
        from probes s join patients p on p.id = s.patient_id
        where s.results_at is not null and p.deleted_at is null ${inUnits('p.unit_id')}`,
  );
  const [alerts] = await rows<{ n: number }>(
    sql`select count(*)::int as n from safety_alerts a join patients p on p.id = a.patient_id
        where a.acknowledged_at is null and p.deleted_at is null ${inUnits('p.unit_id')}`,
  );
  // Out of norm as each sample's own answer flags it.
  const sampleIds = await rows<{ id: number }>(
    sql`select s.id from probes s join patients p on p.id = s.patient_id
        where p.deleted_at is null ${inUnits('p.unit_id')} order by s.id`,
  );
  const tally = new Map<string, { n: number; out: number }>();
  for (const { id } of sampleIds) {
    const res = await t.request('GET', `/api/probes/${id}`, { token });
    const probe = res.json<ProbeDetail>();
    for (const analyte of DASHBOARD_ANALYTES) {
      if (probe.biochemistry_results[analyte] === null) continue;
      const entry = tally.get(analyte) ?? { n: 0, out: 0 };
      entry.n += 1;
      if (probe.results_out_of_norm.includes(analyte)) entry.out += 1;
      tally.set(analyte, entry);
    }
  }
  const overdue = await t.request('GET', '/api/visits/overdue', {
    token,
    query: unitIds?.length === 1 ? { unit_id: String(unitIds[0]) } : {},
  });
  return {
    patients: {
      total: patients!.n,
      by_group: byGroup.map((r) => ({ group_id: Number(r.group_id), count: Number(r.count) })),
      recruitment,
    },
    visits: {
      this_week: thisWeek!.n,
      overdue: overdue.json<{ total: number }>().total,
      in_window: windows.find((w) => !w.out_of_window)?.n ?? 0,
      out_of_window: windows.find((w) => w.out_of_window)?.n ?? 0,
    },
    samples: {
      by_status: byStatus,
      median_days_to_results: median!.m === null ? null : Number(median!.m),
    },
    out_of_norm: DASHBOARD_ANALYTES.filter((a) => tally.has(a)).map((analyte) => ({
      analyte,
      rate: tally.get(analyte)!.out / tally.get(analyte)!.n,
      results: tally.get(analyte)!.n,
    })),
    alerts_open: alerts!.n,
    queries_open: 0,
  };
}

async function addVisit(
  doctor: ReadyDoctor,
  patientId: number,
  date: string,
  startedAt: string,
  extra: Partial<typeof visits.$inferInsert> = {},
) {
  await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx.insert(visits).values({
      patient_id: patientId,
      unit_id: doctor.doctor.unit_id,
      doctor_id: doctor.doctor.id,
      date,
      started_at: startedAt,
      ended_at: startedAt.replace(':00', ':30'),
      ...extra,
    }),
  );
}

async function addAlert(doctor: ReadyDoctor, patientId: number, acknowledged: boolean) {
  const { id } = await insertProbe(t.db, doctor.session.user.id, patientId);
  await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx.execute(sql`insert into safety_alerts (patient_id, rule, details, probe_id, acknowledged_at, acknowledged_by)
      values (${patientId}, 'hys_law', '{}'::jsonb, ${id}, ${acknowledged ? sql`now()` : sql`null`},
        ${acknowledged ? doctor.session.user.id : null})`),
  );
}

/** The counters equal what a rebuild from the rows counts (the triggers never drift). */
async function expectNoDrift() {
  const read = () =>
    rows<{ unit_id: number; metric: string; key: string; n: string }>(
      sql`select unit_id, metric, key, n from dashboard_counts where n <> 0 order by 1, 2, 3`,
    );
  const before = await read();
  await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx.execute(sql`select dashboard_rebuild()`),
  );
  expect(before).toEqual(await read());
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unitA = (await t.unit()).id;
  unitB = (await t.unit()).id;
  doctorA = await t.readyDoctor(unitA);
  doctorB = await t.readyDoctor(unitB);

  const today = warsawDay();
  const week = weekOf(today);
  const a1 = await registerPatient(t, doctorA);
  const a2 = await registerPatient(t, doctorA, { pesel: freshPesel('K') });
  const a3 = await registerPatient(t, doctorA);
  const b1 = await registerPatient(t, doctorB);
  const gone = await registerPatient(t, doctorA);

  // Visits: this week, long ago (overdue by now), out of window, cancelled.
  await addVisit(doctorA, a1.id, week.from, '08:00');
  await addVisit(doctorA, a2.id, '2025-01-06', '08:00');
  await addVisit(doctorA, a3.id, '2025-01-06', '09:00', {
    out_of_window: true,
    window_reason: 'x',
  });
  await addVisit(doctorA, a3.id, week.to, '09:00', { cancelled_at: new Date() });
  await addVisit(doctorB, b1.id, week.to, '10:00');
  await addVisit(doctorA, gone.id, week.from, '11:00');

  // Samples: statuses, results in and out of norm (study range for men ALT ≤ 59), a laboratory's
  // own range, a qualified result, days to results.
  const at = (days: number) => new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000);
  await insertProbe(t.db, doctorA.session.user.id, a1.id, {
    status: 'received',
    alt: 200,
    ast: 20,
    date_of_sample: today,
    results_at: at(2),
  });
  await insertProbe(t.db, doctorA.session.user.id, a1.id, {
    status: 'received',
    alt: 30,
    date_of_sample: today,
    results_at: at(5),
  });
  await insertProbe(t.db, doctorA.session.user.id, a2.id, {
    status: 'sent',
    alt: 45,
    lab_ranges: { alt: { text: '0-40', min: 0, max: 40, unit: 'U/l' } },
    date_of_sample: today,
    results_at: at(3),
  });
  await insertProbe(t.db, doctorA.session.user.id, a3.id, {
    creatine: 0.5,
    result_comparators: { creatine: { comparator: '<', upper: null } },
  });
  await insertProbe(t.db, doctorA.session.user.id, a3.id, { status: 'collected' });
  await insertProbe(t.db, doctorB.session.user.id, b1.id, { alt: 500, status: 'received' });
  await insertProbe(t.db, doctorA.session.user.id, gone.id, { alt: 500, status: 'received' });

  await addAlert(doctorA, a1.id, false);
  await addAlert(doctorA, a2.id, true);
  await addAlert(doctorB, b1.id, false);
  await addAlert(doctorA, gone.id, false);

  const removed = await t.request('DELETE', `/api/patients/${gone.id}`, {
    token: admin.session.token,
  });
  expect(removed.statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('GET /api/dashboard', () => {
  it('answers 401 without a session and 422 for a unit that is no id', async () => {
    expect((await dashboard()).statusCode).toBe(401);
    expect((await dashboard({ unit_id: 'x' }, admin.session.token)).statusCode).toBe(422);
  });

  it("answers 403 to a doctor asking for another unit's figures, 404 for a unit that is not", async () => {
    const res = await dashboard({ unit_id: String(unitB) }, doctorA.session.token);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('patients');
    expect((await dashboard({ unit_id: '999999' }, admin.session.token)).statusCode).toBe(404);
  });

  it("shows a doctor the own unit's figures, as counted independently", async () => {
    for (const query of [{}, { unit_id: String(unitA) }] as Record<string, string>[]) {
      const res = await dashboard(query, doctorA.session.token);
      expect(res.statusCode).toBe(200);
      const body = res.json<DashboardResponse>();
      expect(body).toMatchObject(await expected([unitA], doctorA.session.token));
      expect(body.patients.total).toBe(3);
      expect(body.visits).toMatchObject({ in_window: 2, out_of_window: 1 });
      expect(body.alerts_open).toBe(1);
      expect(body.samples.median_days_to_results).toBe(3);
      expect(body.out_of_norm.find((r) => r.analyte === 'alt')).toEqual({
        analyte: 'alt',
        rate: 2 / 3,
        results: 3,
      });
      expect(body.patients.by_unit).toEqual([{ unit_id: unitA, count: 3 }]);
    }
  });

  it('shows an administrator every unit, or one', async () => {
    const all = (await dashboard({}, admin.session.token)).json<DashboardResponse>();
    expect(all).toMatchObject(await expected(null, admin.session.token));
    expect(all.patients.by_unit).toEqual(
      expect.arrayContaining([
        { unit_id: unitA, count: 3 },
        { unit_id: unitB, count: 1 },
      ]),
    );
    const b = await dashboard({ unit_id: String(unitB) }, admin.session.token);
    expect(b.json()).toMatchObject(await expected([unitB], admin.session.token));
  });

  it('follows changes: results saved, an alert acknowledged, a patient restored or moved', async () => {
    const [probe] = await rows<{ id: number }>(
      sql`select s.id from probes s join patients p on p.id = s.patient_id
          where p.unit_id = ${unitA} and s.alt is null order by s.id limit 1`,
    );
    await inTransaction(t.db, doctorA.session.user.id, (tx) =>
      tx.execute(sql`update probes set alt = 900, results_at = now() where id = ${probe!.id}`),
    );
    await inTransaction(t.db, doctorA.session.user.id, (tx) =>
      tx.execute(sql`update safety_alerts set acknowledged_at = now(), acknowledged_by = ${doctorA.session.user.id}
        where acknowledged_at is null and patient_id in (select id from patients where unit_id = ${unitA})`),
    );
    const [gone] = await rows<{ id: number }>(
      sql`select id from patients where deleted_at is not null and unit_id = ${unitA}`,
    );
    expect(
      (
        await t.request('PUT', `/api/patients/restore/${gone!.id}`, {
          token: admin.session.token,
        })
      ).statusCode,
    ).toBe(200);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.execute(sql`update patients set unit_id = ${unitB} where id = ${gone!.id}`),
    );
    const a = (await dashboard({}, doctorA.session.token)).json<DashboardResponse>();
    expect(a).toMatchObject(await expected([unitA], doctorA.session.token));
    expect(a.alerts_open).toBe(0);
    const b = (await dashboard({}, doctorB.session.token)).json<DashboardResponse>();
    expect(b).toMatchObject(await expected([unitB], doctorB.session.token));
    expect(b.patients.total).toBe(2);
    await expectNoDrift();
  });

  it('answers the recruitment target an administrator saved', async () => {
    const saved = await t.request('POST', '/api/settings/recruitment_target', {
      token: admin.session.token,
      body: { value: { per_unit_month: 4, total: 120 } },
    });
    expect(saved.statusCode).toBe(200);
    const refused = await t.request('POST', '/api/settings/recruitment_target', {
      token: doctorA.session.token,
      body: { value: { per_unit_month: 4, total: 120 } },
    });
    expect(refused.statusCode).toBe(403);
    const body = (await dashboard({}, doctorA.session.token)).json<DashboardResponse>();
    expect(body.recruitment_target).toEqual({ per_unit_month: 4, total: 120 });
  });

  // On PostgreSQL (TEST_DATABASE_URL) the registrations run at once on the pool's connections.
  it('counts every patient registered at once by two doctors', async () => {
    const before = (await dashboard({}, admin.session.token)).json<DashboardResponse>();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => registerPatient(t, i % 2 ? doctorA : doctorB)),
    );
    const after = (await dashboard({}, admin.session.token)).json<DashboardResponse>();
    expect(after.patients.total).toBe(before.patients.total + 8);
    expect(after).toMatchObject(await expected(null, admin.session.token));
    await expectNoDrift();
  });
});

describe('the figures the service derives', () => {
  it('takes the median from a histogram as percentile_cont does', () => {
    expect(medianOfHistogram([])).toBeNull();
    expect(medianOfHistogram([[3, 1]])).toBe(3);
    expect(
      medianOfHistogram([
        [2, 1],
        [5, 1],
      ]),
    ).toBe(3.5);
    expect(
      medianOfHistogram([
        [1, 2],
        [9, 1],
        [4, 0],
      ]),
    ).toBe(1);
  });

  it('takes the week from Monday to Sunday', () => {
    expect(weekOf('2026-11-27')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(weekOf('2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(weekOf('2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
  });
});
