import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { SqlExecutor } from '../db/client.js';
import { get, measureCase } from './cases.js';
import type { CaseResult, Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import { seedStudy } from './seed.js';
import { percentile, timeRounds } from './stats.js';
import type { Rounds } from './stats.js';

/**
 * Issue 24's read-log targets (`BENCH_ONLY=access-log`, ADR 052): at 100,000 patients with two
 * visits each and BENCH_ACCESS_LOG_ENTRIES (10,000,000) read-log entries, the card (and two of
 * its tabs) and the patients list timed with the log written and without it, in alternating
 * rounds of one run (at most 10 % slower), and the log's own pages: the first, filtered by a
 * patient, a user and a date range, deep pages by key (`after`, `before`) and by offset.
 * Seeding the log stops after BENCH_ACCESS_LOG_SECONDS (900) with the entries written so far,
 * and says so.
 */
const ENTRIES = Number(process.env.BENCH_ACCESS_LOG_ENTRIES ?? 10_000_000);
const SEED_BUDGET_S = Number(process.env.BENCH_ACCESS_LOG_SECONDS ?? 900);
const CHUNK = 500_000;
/** Fewer for a quick trial of the case itself. */
export const ACCESS_LOG_PATIENTS = Number(process.env.BENCH_ACCESS_LOG_PATIENTS ?? 100_000);
/** Alternating rounds of the with/without comparison, and requests per case in each round. */
const ROUNDS = Number(process.env.BENCH_ACCESS_LOG_ROUNDS ?? 30);
const PER_ROUND = 5;
/** The tables the study seed and the visits fill (their audit, dashboard and signature triggers). */
const SEEDED_TABLES = [
  'patients',
  'patient_inclusions',
  'patient_medicines',
  'patient_additional_medicines',
  'notes',
  'visits',
];
/** The row trigger the fixture needs on those tables: the study subject id every patient has. */
const KEPT_TRIGGERS: [string, string][] = [['patients', 'patients_study_subject']];

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/**
 * The study of 100,000 patients (seed.ts) and two visits each, with the audit, dashboard and
 * signature-invalidation row triggers of those tables off for the seed: the card and the list
 * read none of what they write, and the audit trail's per-column entries and their hash chain
 * are what made the seed take half an hour here (about 55 patients a second). The audit trail
 * and the dashboard's counters of this database are therefore empty; the read log is not
 * affected (no trigger writes it). The triggers are on again before anything is timed.
 */
export async function seedAccessLogStudy(
  db: SqlExecutor,
  adminUserId: number,
  log: (line: string) => void,
) {
  const started = performance.now();
  const toggle = async (how: 'enable' | 'disable') => {
    for (const table of SEEDED_TABLES) {
      await db.executeSql(`alter table ${table} ${how} trigger user`);
    }
    if (how === 'disable') {
      for (const [table, trigger] of KEPT_TRIGGERS) {
        await db.executeSql(`alter table ${table} enable trigger ${trigger}`);
      }
    }
  };
  await toggle('disable');
  try {
    const seed = await seedStudy(db, adminUserId, log, ACCESS_LOG_PATIENTS);
    // Two visits a patient in the patient's unit, a slot each, over about two years (the card's
    // visits tab reads them); the same layout as the dashboard bench's.
    await db.executeSql(`
      with slots as (
        select p.id as patient_id, p.unit_id, p.doctor_id, v,
          (row_number() over (partition by p.unit_id order by p.id, v) - 1)::int as k
        from patients p cross join generate_series(1, 2) v)
      insert into visits (patient_id, unit_id, doctor_id, date, started_at, ended_at, is_done)
      select patient_id, unit_id, doctor_id, current_date - 760 + (k / 16)::int,
        time '08:00' + (k % 16) * interval '30 minutes',
        time '08:30' + (k % 16) * interval '30 minutes',
        current_date - 760 + (k / 16)::int < current_date
      from slots`);
    await db.executeSql('analyze visits');
    const visits = Number(
      (await db.executeSql('select count(*)::int as n from visits')).rows[0]?.n ?? 0,
    );
    return { ...seed, visits, seconds: (performance.now() - started) / 1000 };
  } finally {
    await toggle('enable');
  }
}

/**
 * Entries as the portal writes them, a minute apart up to now, each naming one patient (every
 * tenth a list of twenty), by the study's users; by set-based SQL in chunks, indexes on.
 */
export async function seedAccessLog(db: SqlExecutor, log: (line: string) => void) {
  const bounds = (await db.executeSql('select min(id) as lo, max(id) as hi from patients')).rows[0];
  const lo = Number(bounds?.lo ?? 1);
  const span = Number(bounds?.hi ?? 1) - lo + 1;
  const users = (
    await db.executeSql(`select id from users where role in ('admin', 'doctor')`)
  ).rows.map((row) => Number(row.id));
  const started = performance.now();
  let written = 0;
  while (written < ENTRIES && (performance.now() - started) / 1000 < SEED_BUDGET_S) {
    const n = Math.min(CHUNK, ENTRIES - written);
    await db.executeSql(`
      insert into access_log (user_id, at, address, kind, patient_ids)
      select (array[${users.join(',')}])[1 + g % ${users.length}],
        now() - (${ENTRIES} - g) * interval '1 minute', '10.0.' || (g % 250) || '.1',
        case when g % 10 = 0 then 'search' else 'patient_card' end,
        case when g % 10 = 0
          then array(select ${lo} + (g * 7 + k) % ${span} from generate_series(0, 19) k)
          else array[${lo} + (g * 7) % ${span}] end
      from generate_series(${written + 1}, ${written + n}) g`);
    written += n;
    log(`  ${written} read-log entries (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await db.executeSql('analyze access_log');
  return { written, seconds: (performance.now() - started) / 1000 };
}

const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`);

function line(name: string, result: CaseResult, floor: { p50: number; p95: number }) {
  const budget = result.sql ? 1.5 * (result.sql.p95 + floor.p95) : undefined;
  return (
    `  ${name.padEnd(34)} ${result.status} rows ${result.rows ?? '-'}: API p50 ${ms(result.api?.p50)} / ` +
    `p95 ${ms(result.api?.p95)}; SQL (${result.statements}) p50 ${ms(result.sql?.p50)} / ` +
    `p95 ${ms(result.sql?.p95)}; 1.5 × (SQL + floor) p95 ${ms(budget)}`
  );
}

/** One arm of the side-by-side comparison: a served app and what its rounds start with. */
export interface Arm {
  name: string;
  client: Client;
  /** Makes the database what this arm needs (the full or the empty log table). */
  enter: () => Promise<void>;
}

/** A statement timed through the driver in the same rounds (what the log's write costs alone). */
export interface SqlProbe {
  name: string;
  enter: () => Promise<void>;
  run: () => Promise<void>;
}

interface ComparedCase {
  name: string;
  /** Requests made one after another and timed together (the card and its tabs). */
  urls: (patient: number) => string[];
}

/** Entries live in `access_log`; a twin without rows waits under this name for the empty arm. */
const EMPTY_TWIN = 'access_log_empty';

/**
 * The read log's table swapped with an empty twin (same columns, defaults and indexes) in one
 * transaction, so that an arm can write into a log of 10 M entries or an empty one between two
 * rounds of the same run. Drizzle's statements name the table and are not prepared by name, so
 * the next INSERT goes to whichever table holds the name.
 */
export function logTableSwitch(db: SqlExecutor) {
  let full = true;
  const swap = () =>
    db.executeSql(`begin;
      alter table access_log rename to access_log_swap;
      alter table ${EMPTY_TWIN} rename to access_log;
      alter table access_log_swap rename to ${EMPTY_TWIN};
      commit;`);
  return {
    async create() {
      await db.executeSql(
        `create table ${EMPTY_TWIN} (like access_log including defaults including constraints including indexes)`,
      );
    },
    async use(wanted: 'full' | 'empty') {
      if ((wanted === 'full') !== full) {
        await swap();
        full = !full;
      }
    },
  };
}

/**
 * The with/without comparison in one run: ROUNDS rounds, each giving every arm PER_ROUND timed
 * requests of every case after one untimed one, the arms' order turning each round (A B C,
 * B C A, ...), so that a change of the machine's load falls on every arm alike. Patients rotate
 * (the same sequence for every arm) so that no arm reads rows another warmed.
 */
export async function compareArms(
  arms: Arm[],
  cases: ComparedCase[],
  patients: number[],
  log: (line: string) => void,
  writes: SqlProbe[] = [],
) {
  const samples = new Map<string, number[]>();
  const key = (arm: string, name: string) => `${arm}\u0000${name}`;
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(os.loadavg()[0]!);
    for (let i = 0; i < arms.length; i++) {
      const arm = arms[(round + i) % arms.length]!;
      await arm.enter();
      for (const benchCase of cases) {
        for (const url of benchCase.urls(patients[0]!)) await get(arm.client, url);
        for (let n = 0; n < PER_ROUND; n++) {
          const patient = patients[(round * PER_ROUND + n) % patients.length]!;
          const started = performance.now();
          for (const url of benchCase.urls(patient)) {
            const answer = await get(arm.client, url);
            if (answer.status !== 200) throw new Error(`${url}: ${answer.status} in ${arm.name}`);
          }
          const list = samples.get(key(arm.name, benchCase.name)) ?? [];
          list.push(performance.now() - started);
          samples.set(key(arm.name, benchCase.name), list);
        }
      }
    }
    for (const write of writes) {
      await write.enter();
      await write.run();
      for (let n = 0; n < PER_ROUND; n++) {
        const started = performance.now();
        await write.run();
        const list = samples.get(key('sql', write.name)) ?? [];
        list.push(performance.now() - started);
        samples.set(key('sql', write.name), list);
      }
    }
  }
  loads.sort((a, b) => a - b);
  log(
    `  ${ROUNDS} alternating rounds × ${PER_ROUND} requests per case and arm; 1-minute load ` +
      `average over the rounds: min ${loads[0]!.toFixed(1)}, median ${percentile(loads, 50).toFixed(1)}, ` +
      `max ${loads[loads.length - 1]!.toFixed(1)}`,
  );
  const base = arms[0]!.name;
  // Per case, per arm ('sql' for a statement timed alone).
  const results: Record<string, Record<string, { p50: number; p95: number }>> = {};
  for (const benchCase of cases) {
    results[benchCase.name] = {};
    for (const arm of arms) {
      const sorted = (samples.get(key(arm.name, benchCase.name)) ?? []).sort((a, b) => a - b);
      results[benchCase.name]![arm.name] = {
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
      };
    }
    const without = results[benchCase.name]![base]!;
    const parts = arms.map((arm) => {
      const t = results[benchCase.name]![arm.name]!;
      const ratio =
        arm.name === base
          ? ''
          : ` (× ${(t.p50 / without.p50).toFixed(2)} / × ${(t.p95 / without.p95).toFixed(2)})`;
      return `${arm.name} ${t.p50.toFixed(1)} / ${t.p95.toFixed(1)}${ratio}`;
    });
    log(`  ${benchCase.name.padEnd(26)} p50 / p95 ms: ${parts.join('; ')}`);
  }
  for (const write of writes) {
    const sorted = (samples.get(key('sql', write.name)) ?? []).sort((a, b) => a - b);
    const t = { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
    results[write.name] = { sql: t };
    log(`  ${write.name.padEnd(26)} p50 / p95 ms: ${t.p50.toFixed(1)} / ${t.p95.toFixed(1)}`);
  }
  return results;
}

/**
 * The measurements on a seeded study: the log seeded, then (signed in anew) the card, its tabs and the patients
 * list with the log unwritten (`withoutLog`, an app built with `readLogWrites: false`), written
 * into the 10 M entries, and written into an empty twin table, alternating; then the log's
 * pages against the SQL + HTTP floor of the same run.
 */
export async function measureAccessLog(
  db: BenchDatabase,
  signIn: () => Promise<{ withLog: Client; withoutLog: Client }>,
  rounds: Rounds,
  log: (line: string) => void,
): Promise<void> {
  const seed = await seedAccessLog(db.handle, log);
  // Signed in after the seed, and again before the log's pages: an access token lasts 15 minutes.
  let clients = await signIn();
  log(
    `  ${seed.written} entries seeded in ${seed.seconds.toFixed(0)} s` +
      (seed.written < ENTRIES ? ` (budget ${SEED_BUDGET_S} s: fewer than ${ENTRIES})` : ''),
  );
  const table = logTableSwitch(db.handle);
  await table.create();
  const patients = (
    await db.handle.executeSql(
      'select id from patients where deleted_at is null order by id limit 50 offset 500',
    )
  ).rows.map((row) => Number(row.id));
  const reader = Number(
    (await db.handle.executeSql(`select min(id) as id from users where role = 'admin'`)).rows[0]
      ?.id,
  );
  const entry =
    'insert into access_log (user_id, address, kind, patient_ids) ' +
    `values (${reader}, '127.0.0.1', 'patient_card', array[${patients[0]}])`;
  log(`  load average ${load()} on ${os.cpus().length} cores (comparison starts)`);
  await compareArms(
    [
      { name: 'no log', client: clients.withoutLog, enter: () => table.use('full') },
      { name: 'log of 10 M', client: clients.withLog, enter: () => table.use('full') },
      { name: 'empty log', client: clients.withLog, enter: () => table.use('empty') },
    ],
    [
      { name: 'floor (GET /api/health)', urls: () => ['/api/health'] },
      { name: 'card', urls: (id) => [`/api/patients/${id}`] },
      {
        name: 'card + visits + notes tabs',
        urls: (id) => [
          `/api/patients/${id}`,
          `/api/patients/${id}/visits`,
          `/api/patients/notes?ref_id=${id}`,
        ],
      },
      { name: 'patients list', urls: () => ['/api/patients?limit=20&offset=0'] },
    ],
    patients,
    log,
    [
      {
        // What the plugin sends for one read: one row in its own transaction.
        name: 'log INSERT + commit (SQL)',
        enter: () => table.use('full'),
        run: async () => {
          await db.handle.executeSql(entry);
        },
      },
      {
        // The same without waiting for the WAL flush: how much of it is the disk's.
        name: 'same, synchronous_commit off',
        enter: () => table.use('full'),
        run: async () => {
          await db.handle.executeSql(
            `begin; set local synchronous_commit = off; ${entry}; commit;`,
          );
        },
      },
    ],
  );
  await table.use('full');
  clients = await signIn();

  const ids = (
    await db.handle.executeSql(
      'select (select max(id) from access_log) as newest, (select min(id) from access_log) as oldest',
    )
  ).rows[0];
  const newest = Number(ids?.newest);
  const oldest = Number(ids?.oldest);
  const patient = patients[0]!;
  const user = Number(
    (await db.handle.executeSql(`select min(id) as id from users where role = 'doctor'`)).rows[0]
      ?.id,
  );
  // About a million entries deep, and near the oldest end.
  const deepKey = newest - 1_000_000;
  const cases = [
    { name: 'log first page', url: '/api/access_log?limit=20' },
    { name: 'log by patient', url: `/api/access_log?limit=20&patientIds=${patient}` },
    { name: 'log by user', url: `/api/access_log?limit=20&userIds=${user}` },
    { name: 'log by date range', url: '/api/access_log?limit=20&from=2026-01-01&to=2026-01-31' },
    { name: 'log deep by key (1M)', url: `/api/access_log?limit=20&after=${deepKey}` },
    { name: 'log oldest by key', url: `/api/access_log?limit=20&after=${oldest + 21}` },
    { name: 'log back by key (1M)', url: `/api/access_log?limit=20&before=${deepKey}` },
    { name: 'log offset 1,000,000', url: '/api/access_log?limit=20&page=50001' },
  ];
  const client = clients.withLog;
  const floor = await timeRounds(rounds, async () => {
    await get(client, '/api/health');
  });
  log(`  load average ${load()}; HTTP floor p50 ${ms(floor.p50)} / p95 ${ms(floor.p95)}`);
  for (const benchCase of cases) {
    for (let i = 0; i < 3; i++) await get(client, benchCase.url);
    log(line(benchCase.name, await measureCase(db, client, benchCase, rounds), floor));
  }
  log(`  load average ${load()} (end)`);
}
