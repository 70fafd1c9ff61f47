import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warsawDay } from '@portal/shared';
import type { DashboardResponse, ProbeDetail } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, ReadyMonitor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { weekOf } from './service.js';

/**
 * Every tile of the dashboard leads to a list filtered as the tile counts (ADR 060): the list's
 * `total` equals the tile's figure, for one unit and for all of them. Also the drug
 * concentrations' out-of-norm rates (migration 0035).
 */

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
let monitor: ReadyMonitor;
let unitA: number;
let unitB: number;
/** A unit the monitor does not reach, with a patient and an open query of its own. */
let unitC: number;
/** Medicine 7 is amlodipine (study range 6–18 ng/ml); medicine 1 has no study range. */
const AMLODIPINE = 7;
const NO_RANGE = 1;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await t.db.execute(query);
  return (result as { rows: T[] }).rows;
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

async function concentration(probeId: number, medicineId: number, value: number | null) {
  await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx.execute(sql`update probe_medicines set concentration = ${value}
      where probe_id = ${probeId} and medicine_id = ${medicineId}`),
  );
}

async function alert(doctor: ReadyDoctor, patientId: number, probeId: number, open: boolean) {
  await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx.execute(sql`insert into safety_alerts (patient_id, rule, details, probe_id, acknowledged_at, acknowledged_by)
      values (${patientId}, 'hys_law', '{}'::jsonb, ${probeId}, ${open ? null : sql`now()`},
        ${open ? null : doctor.session.user.id})`),
  );
}

const totalOf = async (path: string, token: string, query: Record<string, string>) => {
  const res = await t.request('GET', path, { token, query });
  expect(res.statusCode, `${path} ${JSON.stringify(query)}`).toBe(200);
  const body = res.json<{ total?: number; total_count?: number }>();
  return body.total ?? body.total_count;
};

/**
 * Each tile's figure and its list's total, side by side; `unit` is the unit the dashboard and
 * the lists were asked for (undefined: every unit within reach).
 */
async function tilesAndLists(token: string, unit?: number) {
  const u: Record<string, string> = unit === undefined ? {} : { unit_id: String(unit) };
  const res = await t.request('GET', '/api/dashboard', { token, query: u });
  expect(res.statusCode).toBe(200);
  const d = res.json<DashboardResponse>();
  const pairs: [string, number, number | undefined][] = [
    [
      'this_week',
      d.visits.this_week,
      await totalOf('/api/visits', token, { ...u, from: d.week.from, to: d.week.to }),
    ],
    [
      'in_window',
      d.visits.in_window,
      await totalOf('/api/visits', token, { ...u, out_of_window: '0' }),
    ],
    [
      'out_of_window',
      d.visits.out_of_window,
      await totalOf('/api/visits', token, { ...u, out_of_window: '1' }),
    ],
    ['overdue', d.visits.overdue, await totalOf('/api/visits/overdue', token, u)],
    [
      'samples',
      d.samples.by_status.reduce((sum, s) => sum + s.count, 0),
      await totalOf('/api/probes', token, u),
    ],
    ['alerts_open', d.alerts_open, await totalOf('/api/alerts', token, { ...u, status: 'open' })],
  ];
  for (const s of d.samples.by_status) {
    pairs.push([
      `status ${s.status}`,
      s.count,
      await totalOf('/api/probes', token, { ...u, status: s.status }),
    ]);
  }
  for (const a of d.out_of_norm) {
    pairs.push([
      `out of norm ${a.analyte}`,
      Math.round(a.rate * a.results),
      await totalOf('/api/probes', token, { ...u, out_of_norm: a.analyte }),
    ]);
  }
  pairs.push(...(await patientsAndQueries(token, u, d)));
  return { d, pairs };
}

/**
 * The patients tile and its bars (active patients: the list's `deleted=0`, since the list shows
 * deleted ones too, ADR 060) and the open-queries tile (unresolved: `status=open,answered`).
 */
async function patientsAndQueries(
  token: string,
  u: Record<string, string>,
  d: DashboardResponse,
): Promise<[string, number, number | undefined][]> {
  const pairs: [string, number, number | undefined][] = [
    ['patients', d.patients.total, await totalOf('/api/patients', token, { ...u, deleted: '0' })],
    [
      'queries_open',
      d.queries_open,
      await totalOf('/api/queries', token, { ...u, status: 'open,answered' }),
    ],
  ];
  for (const g of d.patients.by_group) {
    pairs.push([
      `group ${g.group_id}`,
      g.count,
      await totalOf('/api/patients', token, { ...u, deleted: '0', groups: String(g.group_id) }),
    ]);
  }
  return pairs;
}

/** A monitor's query on a patient, answered by the site and closed as asked. */
async function query(
  patientId: number,
  then: { answer?: ReadyDoctor; close?: boolean } = {},
): Promise<void> {
  const opened = await t.request('POST', '/api/queries', {
    token: monitor.session.token,
    body: { record_type: 'patient', record_id: patientId, text: 'Proszę sprawdzić' },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const id = opened.json<{ query: { id: number } }>().query.id;
  if (then.answer) {
    const answered = await t.request('POST', `/api/queries/${id}/messages`, {
      token: then.answer.session.token,
      body: { text: 'Sprawdzone' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
  }
  if (then.close) {
    const closed = await t.request('POST', `/api/queries/${id}/close`, {
      token: monitor.session.token,
    });
    expect(closed.statusCode, closed.body).toBe(200);
  }
}

function expectPairsEqual(pairs: [string, number, number | undefined][]) {
  const tiles = Object.fromEntries(pairs.map(([name, tile]) => [name, tile]));
  const lists = Object.fromEntries(pairs.map(([name, , list]) => [name, list]));
  expect(lists).toEqual(tiles);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unitA = (await t.unit()).id;
  unitB = (await t.unit()).id;
  doctorA = await t.readyDoctor(unitA);
  doctorB = await t.readyDoctor(unitB);
  unitC = (await t.unit()).id;
  const doctorC = await t.readyDoctor(unitC);
  monitor = await t.readyMonitor([unitA, unitB]);

  const week = weekOf(warsawDay());
  const a1 = await registerPatient(t, doctorA);
  const a2 = await registerPatient(t, doctorA, { pesel: freshPesel('K') });
  const b1 = await registerPatient(t, doctorB);
  const gone = await registerPatient(t, doctorA);

  await addVisit(doctorA, a1.id, week.from, '08:00');
  await addVisit(doctorA, a2.id, '2025-01-06', '08:00');
  await addVisit(doctorA, a2.id, week.to, '09:00', { out_of_window: true, window_reason: 'x' });
  await addVisit(doctorA, a1.id, week.to, '10:00', { cancelled_at: new Date() });
  await addVisit(doctorB, b1.id, week.from, '10:00', { out_of_window: true, window_reason: 'y' });
  // A deleted patient's visits, samples and alerts count nowhere, in tiles or lists.
  await addVisit(doctorA, gone.id, week.from, '11:00', { out_of_window: true, window_reason: 'z' });

  const p1 = await insertProbe(t.db, doctorA.session.user.id, a1.id, {
    status: 'received',
    alt: 200,
    medicineIds: [AMLODIPINE, NO_RANGE],
  });
  await concentration(p1.id, AMLODIPINE, 25); // above 18: out of norm
  await concentration(p1.id, NO_RANGE, 3); // no range: not judged
  const p2 = await insertProbe(t.db, doctorA.session.user.id, a2.id, {
    status: 'sent',
    alt: 30,
    ast: 90,
    medicineIds: [AMLODIPINE],
  });
  await concentration(p2.id, AMLODIPINE, 10);
  // A laboratory's own range for a concentration without a study range: judged by it.
  const p3 = await insertProbe(t.db, doctorA.session.user.id, a2.id, {
    status: 'collected',
    lab_ranges: { [`medicine_${NO_RANGE}`]: { text: '1-2', min: 1, max: 2, unit: 'ng/ml' } },
    medicineIds: [NO_RANGE],
  });
  await concentration(p3.id, NO_RANGE, 5);
  const pb = await insertProbe(t.db, doctorB.session.user.id, b1.id, {
    status: 'received',
    alt: 500,
    medicineIds: [AMLODIPINE],
  });
  await concentration(pb.id, AMLODIPINE, 3); // below 6: out of norm
  const pg = await insertProbe(t.db, doctorA.session.user.id, gone.id, {
    status: 'received',
    alt: 500,
    medicineIds: [AMLODIPINE],
  });
  await concentration(pg.id, AMLODIPINE, 50);

  await alert(doctorA, a1.id, p1.id, true);
  await alert(doctorA, a2.id, p2.id, false);
  await alert(doctorB, b1.id, pb.id, true);
  await alert(doctorA, gone.id, pg.id, true);

  // Open, answered (both unresolved: counted) and closed (not counted) queries in two units.
  await query(a1.id);
  await query(a2.id, { answer: doctorA });
  await query(a2.id, { close: true });
  await query(b1.id, { answer: doctorB });
  await query(gone.id);
  const monitorC = await t.readyMonitor([unitC]);
  const c1 = await registerPatient(t, doctorC);
  const openedC = await t.request('POST', '/api/queries', {
    token: monitorC.session.token,
    body: { record_type: 'patient', record_id: c1.id, text: 'Inna jednostka' },
  });
  expect(openedC.statusCode, openedC.body).toBe(201);

  const removed = await t.request('DELETE', `/api/patients/${gone.id}`, {
    token: admin.session.token,
  });
  expect(removed.statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('the dashboard’s tiles and their lists', () => {
  it('agree for a doctor’s unit', async () => {
    const { d, pairs } = await tilesAndLists(doctorA.session.token);
    expectPairsEqual(pairs);
    // Not all zeros: the comparison could fail.
    expect(d.visits).toMatchObject({ this_week: 2, in_window: 2, out_of_window: 1 });
    expect(d.alerts_open).toBe(1);
    // a1 and a2 (gone is deleted); a1's open query, a2's answered one and the deleted patient's
    // (queries stay with the unit they were opened in, ADR 051).
    expect(d.patients.total).toBe(2);
    expect(d.queries_open).toBe(3);
  });

  it('agree for one unit an administrator chose, and for all units', async () => {
    for (const unit of [unitA, unitB, undefined]) {
      const { pairs } = await tilesAndLists(admin.session.token, unit);
      expectPairsEqual(pairs);
    }
  });

  it('patients and open queries agree for a monitor’s units, one or all of them', async () => {
    for (const unit of [unitA, unitB, undefined]) {
      const u: Record<string, string> = unit === undefined ? {} : { unit_id: String(unit) };
      const res = await t.request('GET', '/api/dashboard', {
        token: monitor.session.token,
        query: u,
      });
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json<DashboardResponse>();
      expectPairsEqual(await patientsAndQueries(monitor.session.token, u, d));
      if (unit === undefined) {
        // Both assigned units, not unit C's: a1, a2, b1; A's three and B's answered one.
        expect(d.patients.total).toBe(3);
        expect(d.queries_open).toBe(4);
      }
    }
    // A unit beyond the monitor's reach: the dashboard 403, the lists 404 (ADR 060).
    const dashboard = await t.request('GET', '/api/dashboard', {
      token: monitor.session.token,
      query: { unit_id: String(unitC) },
    });
    expect(dashboard.statusCode).toBe(403);
    for (const path of ['/api/patients', '/api/patients/cards', '/api/queries']) {
      const res = await t.request('GET', path, {
        token: monitor.session.token,
        query: { unit_id: String(unitC) },
      });
      expect(res.statusCode, path).toBe(404);
    }
  });

  it('the patients list: deleted=1 lists the deleted only, a unit that does not exist is 404', async () => {
    const deleted = await t.request('GET', '/api/patients', {
      token: admin.session.token,
      query: { unit_id: String(unitA), deleted: '1' },
    });
    expect(deleted.statusCode).toBe(200);
    const rows = deleted.json<{ data: { deleted_at: string | null }[]; total_count: number }>();
    expect(rows.total_count).toBe(1);
    expect(rows.data.every((row) => row.deleted_at !== null)).toBe(true);
    const all = await totalOf('/api/patients', admin.session.token, { unit_id: String(unitA) });
    expect(all).toBe(3);
    const missing = await t.request('GET', '/api/patients', {
      token: admin.session.token,
      query: { unit_id: '999999' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('the lists answer 404 to a doctor naming another unit, 401 without a session, 422 for a bad filter', async () => {
    for (const path of [
      '/api/probes',
      '/api/alerts',
      '/api/visits',
      '/api/patients',
      '/api/patients/cards',
      '/api/queries',
    ]) {
      const res = await t.request('GET', path, {
        token: doctorA.session.token,
        query: { unit_id: String(unitB) },
      });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('Mazur');
      expect((await t.request('GET', path, { query: { unit_id: String(unitA) } })).statusCode).toBe(
        401,
      );
    }
    for (const [path, query] of [
      ['/api/probes', { status: 'lost' }],
      ['/api/probes', { out_of_norm: 'sodium' }],
      ['/api/probes', { out_of_norm: "alt' or 1=1" }],
      ['/api/visits', { out_of_window: 'yes' }],
      ['/api/patients', { deleted: 'yes' }],
      ['/api/patients', { unit_id: 'x' }],
      ['/api/queries', { status: 'open,lost' }],
      ['/api/queries', { status: '' }],
    ] as const) {
      const res = await t.request('GET', path, { token: admin.session.token, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
    }
  });
});

describe('drug concentrations out of norm', () => {
  it('counts the concentrations that can be judged, as the samples flag them', async () => {
    const a = (
      await t.request('GET', '/api/dashboard', { token: doctorA.session.token })
    ).json<DashboardResponse>();
    expect(a.out_of_norm.map((r) => r.analyte)).toEqual([
      'alt',
      'ast',
      `medicine_${NO_RANGE}`,
      `medicine_${AMLODIPINE}`,
    ]);
    expect(a.out_of_norm.find((r) => r.analyte === `medicine_${AMLODIPINE}`)).toEqual({
      analyte: `medicine_${AMLODIPINE}`,
      rate: 0.5,
      results: 2,
    });
    // Only the sample with the laboratory's range: the one without any range is not judged.
    expect(a.out_of_norm.find((r) => r.analyte === `medicine_${NO_RANGE}`)).toEqual({
      analyte: `medicine_${NO_RANGE}`,
      rate: 1,
      results: 1,
    });
    // The samples' own flags say the same.
    const ids = await rows<{ id: number }>(
      sql`select s.id from probes s join patients p on p.id = s.patient_id
          where p.unit_id = ${unitA} and p.deleted_at is null order by s.id`,
    );
    const flagged = new Map<string, number>();
    for (const { id } of ids) {
      const probe = (
        await t.request('GET', `/api/probes/${id}`, { token: doctorA.session.token })
      ).json<ProbeDetail>();
      for (const key of probe.results_out_of_norm) flagged.set(key, (flagged.get(key) ?? 0) + 1);
    }
    for (const r of a.out_of_norm) {
      expect(flagged.get(r.analyte) ?? 0, r.analyte).toBe(Math.round(r.rate * r.results));
    }
  });

  it('follows a concentration changed, a laboratory range, a sample deleted, a patient restored, without drift', async () => {
    const [p] = await rows<{ id: number }>(
      sql`select s.id from probes s join probe_medicines m on m.probe_id = s.id
          join patients pt on pt.id = s.patient_id
          where pt.unit_id = ${unitA} and pt.deleted_at is null and m.medicine_id = ${AMLODIPINE}
            and m.concentration = 10`,
    );
    await concentration(p!.id, AMLODIPINE, 30);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.execute(
        sql`update probes set lab_ranges = ${JSON.stringify({
          [`medicine_${AMLODIPINE}`]: { text: '0-100', min: 0, max: 100, unit: 'ng/ml' },
        })}::jsonb where id = ${p!.id}`,
      ),
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
    const read = () =>
      rows<{ unit_id: number; metric: string; key: string; n: string }>(
        sql`select unit_id, metric, key, n from dashboard_counts where n <> 0 order by 1, 2, 3`,
      );
    const rebuilt = async () => {
      const before = await read();
      await inTransaction(t.db, admin.session.user.id, (tx) =>
        tx.execute(sql`select dashboard_rebuild()`),
      );
      expect(before).toEqual(await read());
    };
    await rebuilt();
    const amlodipineOut = async () =>
      (await read()).find(
        (r) =>
          r.unit_id === unitA && r.metric === 'analyte_out' && r.key === `medicine_${AMLODIPINE}`,
      )?.n;
    // 25 (out), 30 within the laboratory's 0–100, 50 of the restored patient (out).
    expect(Number(await amlodipineOut())).toBe(2);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.execute(sql`with doomed as (select s.id from probes s
          join probe_medicines m on m.probe_id = s.id
          where s.patient_id = ${gone!.id} and m.medicine_id = ${AMLODIPINE}),
        alerts as (delete from safety_alerts where probe_id in (select id from doomed))
        delete from probes where id in (select id from doomed)`),
    );
    expect(Number(await amlodipineOut())).toBe(1);
    await rebuilt();
    const { pairs } = await tilesAndLists(doctorA.session.token);
    expectPairsEqual(pairs);
  });
});
