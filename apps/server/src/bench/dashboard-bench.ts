import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { SqlExecutor } from '../db/client.js';
import { hashPassword } from '../lib/passwords.js';
import { get, measureCase } from './cases.js';
import type { Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import { PATIENTS as PATIENTS_AT_SCALE, seedStudy } from './seed.js';
import { timeRounds } from './stats.js';
import type { Rounds } from './stats.js';

/**
 * Issue 26's dashboard target (`BENCH_ONLY=dashboard`, ADR 060): GET /api/dashboard at 100,000
 * patients (the study seed, the dashboard's triggers on), 200,000 visits and BENCH_DASHBOARD_PROBES
 * (1,000,000) samples with results, p95 under 150 ms on PostgreSQL, as an administrator (every
 * unit, and one) and as a doctor; beside it the HTTP floor, the statements replayed, the time of
 * a full rebuild of the counters and what the triggers add to a sample's update.
 */
const PROBES = Number(process.env.BENCH_DASHBOARD_PROBES ?? 1_000_000);
/** Fewer for a quick trial of the case itself. */
const PATIENTS = Number(process.env.BENCH_DASHBOARD_PATIENTS ?? PATIENTS_AT_SCALE);
const VISITS_PER_PATIENT = 2;
export const DASHBOARD_DOCTOR = {
  login: 'lekarz.pulpit@bench.example.pl',
  password: 'bench-2026-Pulpit',
};

const pick = (expr: string, salt: number, n: number | string) =>
  `(abs(hashint4((${expr}) * 31 + ${salt})) % ${n})`;
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);

/**
 * The study seed, then visits and samples by set-based SQL with the row triggers off (audit and
 * counters: a million synthetic rows are not what is measured), then one rebuild of the counters,
 * timed: what migration 0033 does on an existing database.
 */
export async function seedDashboardBench(
  db: SqlExecutor,
  adminUserId: number,
  log: (line: string) => void,
): Promise<{ rebuildMs: number; unitId: number }> {
  const started = performance.now();
  const seed = await seedStudy(db, adminUserId, log, PATIENTS);
  log(`  ${seed.patients} patients in ${seed.seconds.toFixed(0)} s (dashboard triggers on)`);
  await db.executeSql('alter table visits disable trigger user');
  await db.executeSql('alter table probes disable trigger user');
  try {
    // Two visits a patient, one slot each in the patient's unit, spread over about two years up
    // to three weeks ahead (so this week holds about a hundred per unit); one in ten out of window.
    await db.executeSql(`
      with slots as (
        select p.id as patient_id, p.unit_id, p.doctor_id, v,
          (row_number() over (partition by p.unit_id order by p.id, v) - 1)::int as k
        from patients p cross join generate_series(1, ${VISITS_PER_PATIENT}) v)
      insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, is_done,
        out_of_window, window_reason)
      select patient_id, unit_id, doctor_id, current_date - 760 + (k / 16)::int,
        time '08:00' + (k % 16) * interval '30 minutes',
        time '08:30' + (k % 16) * interval '30 minutes',
        current_date - 760 + (k / 16)::int < current_date, ${pick('k', 5, 10)} = 0,
        case when ${pick('k', 5, 10)} = 0 then 'Pacjent w szpitalu' end
      from slots`);
    log(`  visits inserted (${seconds(started)} s)`);
    const carrier = Number(
      (await db.executeSql('select min(id) as id from carriers')).rows[0]?.id ?? 0,
    );
    await db.executeSql(`
      with patient_list as (
        select (row_number() over (order by id) - 1)::int as k, id, firstname, surname from patients)
      insert into probes (code, patient_id, probe_number, status, date_of_sample, carrier_id,
        ordered_by_firstname, ordered_by_surname, ordered_at, patient_firstname, patient_surname,
        patient_address_street, patient_address_building, patient_address_postcode,
        patient_address_city, alt, ast, creatine, bilirubine, results_at, created_at, updated_at)
      select 'D' || lpad(g::text, 7, '0') || 'ZP', p.id, g / ${seed.patients} + 1, s.status,
        (now() - g * interval '30 seconds')::date, ${carrier}, 'Jan', 'Pulpitowy',
        (now() - g * interval '30 seconds')::date, p.firstname, p.surname, 'ul. Długa', '1',
        '00-001', 'Warszawa',
        case when s.status = 'received' then 10 + ${pick('g', 6, 80)} end,
        case when s.status = 'received' then 10 + ${pick('g', 7, 50)} end,
        case when s.status = 'received' then 0.5 + ${pick('g', 8, 10)} / 10.0 end,
        case when s.status = 'received' then 0.2 + ${pick('g', 9, 15)} / 10.0 end,
        case when s.status = 'received'
          then now() - g * interval '30 seconds' + (1 + ${pick('g', 10, 9)}) * interval '1 day' end,
        now() - g * interval '30 seconds', now() - g * interval '30 seconds'
      from generate_series(0, ${PROBES - 1}) g
      join patient_list p on p.k = g % ${seed.patients}
      cross join lateral (select (array['collected','sent','received'])[1 + ${pick('g', 3, 3)}] as status) s`);
    log(`  ${PROBES} samples inserted (${seconds(started)} s)`);
    await db.executeSql('analyze');
  } finally {
    await db.executeSql('alter table visits enable trigger user');
    await db.executeSql('alter table probes enable trigger user');
  }
  const rebuildStarted = performance.now();
  await db.executeSql('select dashboard_rebuild()');
  const rebuildMs = performance.now() - rebuildStarted;
  log(`  counters rebuilt from every row in ${(rebuildMs / 1000).toFixed(1)} s`);
  await db.executeSql('analyze dashboard_counts');

  const unitId = Number((await db.executeSql('select min(id) as id from units')).rows[0]?.id ?? 0);
  await db.executeSql(
    `with account as (
       insert into users (login, password_hash, role, changed_password_at)
       values ($1, $2, 'doctor', now()) returning id)
     insert into doctors (user_id, firstname, surname, email, phone_number, unit_id)
     select id, 'Jan', 'Pulpitowy', $1, '600100200', $3 from account`,
    [DASHBOARD_DOCTOR.login, await hashPassword(DASHBOARD_DOCTOR.password), unitId],
  );
  return { rebuildMs, unitId };
}

/**
 * What the counters' trigger adds to one sample's results update (the statement an HL7 result
 * or a hand entry runs), replayed on the same rows with the trigger on and off.
 */
async function triggerCost(db: SqlExecutor, rounds: Rounds) {
  const ids = (
    await db.executeSql(`select id from probes where status = 'received' order by id limit 200`)
  ).rows.map((row) => Number(row.id));
  let i = 0;
  const update = async () => {
    const id = ids[i++ % ids.length]!;
    await db.executeSql('update probes set alt = alt + 1, results_at = now() where id = $1', [id]);
  };
  const on = await timeRounds(rounds, update);
  await db.executeSql('alter table probes disable trigger probes_dashboard');
  try {
    const off = await timeRounds(rounds, update);
    return { on, off };
  } finally {
    await db.executeSql('alter table probes enable trigger probes_dashboard');
    // The updates above ran partly without the counters: count again.
    await db.executeSql('select dashboard_rebuild()');
  }
}

export async function measureDashboard(
  db: BenchDatabase,
  clients: { admin: Client; doctor: Client },
  unitId: number,
  rounds: Rounds,
  log: (line: string) => void,
): Promise<void> {
  log(
    `  load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const floor = await timeRounds(rounds, async () => {
    await get(clients.admin, '/api/health');
  });
  log(
    `  HTTP floor (GET /api/health) p50 ${floor.p50.toFixed(1)} ms / p95 ${floor.p95.toFixed(1)} ms`,
  );
  const cases = [
    { who: 'admin' as const, name: 'every unit', url: '/api/dashboard' },
    { who: 'admin' as const, name: 'one unit', url: `/api/dashboard?unit_id=${unitId}` },
    { who: 'doctor' as const, name: 'own unit', url: '/api/dashboard' },
  ];
  const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`);
  for (const benchCase of cases) {
    const client = clients[benchCase.who];
    for (let i = 0; i < 10; i++) await get(client, benchCase.url);
    const result = await measureCase(db, client, benchCase, rounds);
    const budget = result.sql ? 1.5 * (result.sql.p95 + floor.p95) : null;
    log(
      `  ${benchCase.who.padEnd(6)} ${benchCase.name.padEnd(11)} ${result.status}: API p50 ${ms(result.api?.p50)} / ` +
        `p95 ${ms(result.api?.p95)}; SQL (${result.statements}) p50 ${ms(result.sql?.p50)} / ` +
        `p95 ${ms(result.sql?.p95)}; 1.5 × (SQL + floor) p95 ${ms(budget ?? undefined)}; ` +
        `in process p95 ${ms(result.inProcess?.p95)}`,
    );
  }
  const cost = await triggerCost(db.handle, rounds);
  log(
    `  a sample's results update: p50 ${ms(cost.on.p50)} / p95 ${ms(cost.on.p95)} with the counters' ` +
      `trigger, p50 ${ms(cost.off.p50)} / p95 ${ms(cost.off.p95)} without`,
  );
}
