import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { SqlExecutor } from '../db/client.js';
import { get, measureCase } from './cases.js';
import type { CaseResult, Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import { timeRounds } from './stats.js';
import type { Rounds } from './stats.js';

/**
 * Issue 24's read-log targets (`BENCH_ONLY=access-log`, ADR 052): at 100,000 patients, the card
 * and the patients list with the read log empty and then holding BENCH_ACCESS_LOG_ENTRIES
 * (10,000,000) entries, in the same run (at most 10 % slower), and the log's own pages: the
 * first, filtered by a patient and by a user, a deep page by key (`after`) and by offset.
 * Seeding stops after BENCH_ACCESS_LOG_SECONDS (600) with the entries written so far, and says so.
 */
const ENTRIES = Number(process.env.BENCH_ACCESS_LOG_ENTRIES ?? 10_000_000);
const SEED_BUDGET_S = Number(process.env.BENCH_ACCESS_LOG_SECONDS ?? 600);
const CHUNK = 500_000;
/** Fewer for a trial on a busy machine (the study seed writes about 55 patients a second there). */
export const ACCESS_LOG_PATIENTS = Number(process.env.BENCH_ACCESS_LOG_PATIENTS ?? 100_000);

const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

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

function line(name: string, result: CaseResult, floor: { p50: number; p95: number }) {
  const budget = result.sql ? 1.5 * (result.sql.p95 + floor.p95) : undefined;
  return (
    `  ${name.padEnd(34)} ${result.status} rows ${result.rows ?? '-'}: API p50 ${ms(result.api?.p50)} / ` +
    `p95 ${ms(result.api?.p95)}; SQL (${result.statements}) p50 ${ms(result.sql?.p50)} / ` +
    `p95 ${ms(result.sql?.p95)}; 1.5 × (SQL + floor) p95 ${ms(budget)}`
  );
}

async function floorOf(client: Client, rounds: Rounds) {
  return timeRounds(rounds, async () => {
    await get(client, '/api/health');
  });
}

/** The card and the list as an administrator; each of these reads writes its own entry. */
async function readsOfPatients(db: BenchDatabase, client: Client, rounds: Rounds) {
  const patient = Number(
    (await db.handle.executeSql('select min(id) + 500 as id from patients')).rows[0]?.id,
  );
  const cases = [
    { name: 'card', url: `/api/patients/${patient}` },
    { name: 'patients list', url: '/api/patients?limit=20&offset=0' },
  ];
  const results: Record<string, CaseResult> = {};
  for (const benchCase of cases) {
    for (let i = 0; i < 10; i++) await get(client, benchCase.url);
    results[benchCase.name] = await measureCase(db, client, benchCase, rounds);
  }
  return results;
}

export async function measureAccessLog(
  db: BenchDatabase,
  client: Client,
  rounds: Rounds,
  log: (line: string) => void,
): Promise<void> {
  log(`  load average ${load()} on ${os.cpus().length} cores (log empty)`);
  const floorEmpty = await floorOf(client, rounds);
  const empty = await readsOfPatients(db, client, rounds);
  for (const [name, result] of Object.entries(empty)) {
    log(line(`${name}, log empty`, result, floorEmpty));
  }

  const seed = await seedAccessLog(db.handle, log);
  log(
    `  ${seed.written} entries seeded in ${seed.seconds.toFixed(0)} s` +
      (seed.written < ENTRIES ? ` (budget ${SEED_BUDGET_S} s: fewer than ${ENTRIES})` : ''),
  );
  log(`  load average ${load()} (log full)`);
  const floorFull = await floorOf(client, rounds);
  const full = await readsOfPatients(db, client, rounds);
  for (const [name, result] of Object.entries(full)) {
    const before = empty[name]!;
    const ratio = (a?: number, b?: number) => (a && b ? `${((b / a - 1) * 100).toFixed(0)} %` : '');
    log(
      line(`${name}, log full`, result, floorFull) +
        `; vs empty p50 ${ratio(before.api?.p50, result.api?.p50)}, p95 ${ratio(before.api?.p95, result.api?.p95)}`,
    );
  }

  const ids = (
    await db.handle.executeSql(
      'select (select max(id) from access_log) as newest, (select min(id) from access_log) as oldest',
    )
  ).rows[0];
  const newest = Number(ids?.newest);
  const oldest = Number(ids?.oldest);
  const patient = Number(
    (await db.handle.executeSql('select min(id) + 500 as id from patients')).rows[0]?.id,
  );
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
  const floor = await floorOf(client, rounds);
  log(`  HTTP floor p50 ${ms(floor.p50)} / p95 ${ms(floor.p95)}`);
  for (const benchCase of cases) {
    for (let i = 0; i < 3; i++) await get(client, benchCase.url);
    log(line(benchCase.name, await measureCase(db, client, benchCase, rounds), floor));
  }
  log(`  load average ${load()} (end)`);
}
