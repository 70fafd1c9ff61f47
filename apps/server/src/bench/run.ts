import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { ensureInitialAdmin } from '../modules/admins/index.js';
import { benchCases, filterIds, get, measureCase, throughput } from './cases.js';
import type { CaseResult, Client } from './cases.js';
import { measureBackup } from './backup-bench.js';
import { measureColdStart } from './cold-start.js';
import { measureHl7 } from './hl7-bench.js';
import { measureImport } from './import-bench.js';
import { measureImportHealth } from './import-health-bench.js';
import { measureLabels } from './labels-bench.js';
import { measureMonthSlots } from './slots-bench.js';
import { measureProbeCode } from './probe-code-bench.js';
import { measureNodes } from './nodes-bench.js';
import { temporaryPglite, throwawayPostgres } from './databases.js';
import type { BenchDatabase } from './databases.js';
import { RESULTS_FILE, formatResults, writeResults } from './report.js';
import type { BenchResults, DatabaseRun } from './report.js';
import { seedStudy } from './seed.js';
import { formatVisits, measureVisits, seedVisitsBench } from './visits-bench.js';
import { measureProbes, seedProbesBench, signInDoctor } from './probes-bench.js';
import { WEB_ROOT, measureShell } from './shell.js';
import { addReportResults, measureReport } from './report-bench.js';
import { DASHBOARD_DOCTOR, measureDashboard, seedDashboardBench } from './dashboard-bench.js';
import {
  AUDIT_ENTRIES,
  formatAuditChain,
  measureChainOverhead,
  measureVerify,
  seedAuditEntries,
} from './audit-chain-bench.js';
import type { Rounds } from './stats.js';
import { measureAccessLog, seedAccessLogStudy } from './access-log-bench.js';

/**
 * `npm run bench`: seeds the study at scale (100,000 patients, their audit trail written by the
 * triggers) into a throwaway PostgreSQL database when BENCH_DATABASE_URL names a server, and into
 * PGlite; times every case of issue 8 through the API over HTTP beside the same statements
 * replayed through the driver; measures throughput, the login route's bytes and the cold start.
 * Nothing is asserted; the table and bench-results.json are compared between commits.
 */
const ROUNDS: Rounds = { max: 50, min: 5, budgetMs: 2_000 };
const CLIENTS = 16;
const THROUGHPUT_MS = 8_000;
const COLD_STARTS = 3;
const ADMIN = { login: 'bench', password: 'bench-password-2026' };

const log = (line: string) => console.log(line);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);

async function signIn(baseUrl: string): Promise<Client> {
  const response = await fetch(`${baseUrl}/api/auth/login/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${response.status}`);
  return { baseUrl, headers: { authorization: `Bearer ${body.access_token}` } };
}

async function benchDatabase(
  db: BenchDatabase,
  shell: BenchResults['shell'] | null,
): Promise<DatabaseRun> {
  const started = performance.now();
  log(`\n${db.label}: seeding`);
  await ensureInitialAdmin(db.handle.db, ADMIN);
  const admin = await db.handle.executeSql('select id from users where login = $1', [ADMIN.login]);
  const seed = await seedStudy(db.handle, Number(admin.rows[0]?.id), log);
  log(
    `${db.label}: ${seed.patients} patients, ${seed.auditEntries} audit entries in ${seed.seconds.toFixed(0)} s`,
  );

  const webRoot = shell && existsSync(WEB_ROOT) ? WEB_ROOT : null;
  const config = loadConfig({ LOG_LEVEL: 'silent' }, webRoot);
  const app = await buildApp({ db: db.handle.db, config, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = await signIn(`http://127.0.0.1:${port}`);
    // Warms the server's code paths (JIT, prepared schemas) so that the first case is not the
    // one that pays for them.
    for (let i = 0; i < 30; i++) await get(client, '/api/patients?limit=20&offset=0');
    const cases: CaseResult[] = [];
    for (const benchCase of benchCases(await filterIds(db.handle))) {
      const result = await measureCase(db, client, benchCase, ROUNDS);
      const p95 = (t: { p95: number } | null) => (t ? `${t.p95.toFixed(1)} ms` : 'n/a');
      log(
        `  ${benchCase.name.padEnd(36)} ${result.status}  API p95 ${p95(result.api)}, SQL p95 ${p95(result.sql)} (${result.statements} statements)`,
      );
      cases.push(result);
    }
    // A first page for every client, so that connections are open before the clock starts.
    await Promise.all(Array.from({ length: CLIENTS }, () => get(client, cases[0]!.url)));
    const rate = await throughput(client, cases[0]!.url, CLIENTS, THROUGHPUT_MS);
    log(`  throughput: ${rate.perSecond.toFixed(0)} requests/s at ${CLIENTS} clients`);
    const visits = await benchVisits(db, client);
    for (const line of await measureProbeCode(db.handle, client)) log(`  ${line}`);
    if (shell) {
      Object.assign(shell, await measureShell(client.baseUrl));
      log(`  login route: ${shell.bytes ? JSON.stringify(shell.bytes).slice(0, 200) : shell.note}`);
    }
    log(`${db.label}: done in ${seconds(started)} s`);
    return { label: db.label, seed, cases, throughput: rate, visits };
  } finally {
    await app.close();
  }
}

/** Issue 9's cases on their own fixture (visits-bench.ts), beside whatever the database holds. */
async function benchVisits(db: BenchDatabase, client: Client) {
  const fixture = await seedVisitsBench(db.handle);
  const result = await measureVisits(db, client, fixture, ROUNDS);
  for (const line of formatVisits(db.label, result)) log(`  ${line}`);
  return result;
}

/**
 * `BENCH_ONLY=visits`: issue 9's cases alone, without the 100,000-patient seed (minutes) or the
 * other measurements; prints its lines and writes no results file.
 */
async function visitsOnly(db: BenchDatabase) {
  await onlyCase(db, (client) => benchVisits(db, client));
}

/** `BENCH_ONLY=probe-code`: issue 10's code-generation case alone (probe-code-bench.ts). */
async function probeCodeOnly(db: BenchDatabase) {
  await onlyCase(db, async (client) => {
    for (const line of await measureProbeCode(db.handle, client)) log(`  ${line}`);
  });
}

/** One case against a served app on an empty migrated database, without the big seed. */
async function onlyCase(db: BenchDatabase, run: (client: Client) => Promise<unknown>) {
  await ensureInitialAdmin(db.handle.db, ADMIN);
  const app = await buildApp({
    db: db.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, null),
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await run(await signIn(`http://127.0.0.1:${port}`));
  } finally {
    await app.close();
  }
}

/**
 * `BENCH_ONLY=probes`: issue 10's samples list alone, on its own fixture of BENCH_PROBES
 * (1,000,000) samples; prints its lines and writes no results file.
 */
async function probesOnly(db: BenchDatabase) {
  await ensureInitialAdmin(db.handle.db, ADMIN);
  log(`${db.label}: seeding samples`);
  const fixture = await seedProbesBench(db.handle, log);
  log(`${db.label}: ${fixture.probes} samples seeded in ${fixture.seconds.toFixed(0)} s`);
  const app = await buildApp({
    db: db.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, null),
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const inProcess = (client: Client): Client => ({
      ...client,
      inject: async (url) =>
        (await app.inject({ method: 'GET', url, headers: client.headers })).statusCode,
    });
    const clients = {
      admin: inProcess(await signIn(baseUrl)),
      doctor: inProcess(await signInDoctor(baseUrl)),
    };
    await measureProbes(db, clients, fixture, ROUNDS, log);
  } finally {
    await app.close();
  }
}

/**
 * `BENCH_ONLY=report`: issue 12's Excel report on the samples fixture of BENCH_PROBES samples
 * (report-bench.ts); prints its line and writes no results file.
 */
async function reportOnly(db: BenchDatabase) {
  log(`${db.label}: seeding samples`);
  const fixture = await seedProbesBench(db.handle, log);
  await addReportResults(db.handle);
  log(
    `${db.label}: ${fixture.probes} samples seeded in ${fixture.seconds.toFixed(0)} s, results added`,
  );
  await onlyCase(db, (client) => measureReport(db.handle.db, client, fixture.probes, log));
}

/**
 * `BENCH_ONLY=dashboard`: issue 26's dashboard on 100,000 patients and 1,000,000 samples
 * (dashboard-bench.ts), PostgreSQL only (the target is PostgreSQL's; PGlite would seed for long
 * minutes); prints its lines and writes no results file.
 */
async function dashboardOnly(db: BenchDatabase) {
  await ensureInitialAdmin(db.handle.db, ADMIN);
  const admin = await db.handle.executeSql('select id from users where login = $1', [ADMIN.login]);
  const started = performance.now();
  const { unitId } = await seedDashboardBench(db.handle, Number(admin.rows[0]?.id), log);
  log(`${db.label}: seeded in ${seconds(started)} s`);
  const app = await buildApp({
    db: db.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, null),
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const inProcess = (client: Client): Client => ({
      ...client,
      inject: async (url) =>
        (await app.inject({ method: 'GET', url, headers: client.headers })).statusCode,
    });
    const doctor = await fetch(`${baseUrl}/api/auth/login/doctor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DASHBOARD_DOCTOR),
    });
    const token = ((await doctor.json()) as { access_token?: string }).access_token;
    if (!token) throw new Error(`doctor sign-in failed: ${doctor.status}`);
    const clients = {
      admin: inProcess(await signIn(baseUrl)),
      doctor: inProcess({ baseUrl, headers: { authorization: `Bearer ${token}` } }),
    };
    await measureDashboard(db, clients, unitId, ROUNDS, log);
  } finally {
    await app.close();
  }
}

/**
 * `BENCH_ONLY=access-log`: issue 24's read log at 100,000 patients and 10,000,000 entries
 * (access-log-bench.ts), PostgreSQL only; two apps on the same database, one writing the read
 * log and one not, for the side-by-side comparison; prints its lines and writes no results file.
 */
async function accessLogOnly(db: BenchDatabase) {
  await ensureInitialAdmin(db.handle.db, ADMIN);
  const admin = await db.handle.executeSql('select id from users where login = $1', [ADMIN.login]);
  const seed = await seedAccessLogStudy(db.handle, Number(admin.rows[0]?.id), log);
  log(
    `${db.label}: ${seed.patients} patients, ${seed.visits} visits in ${seed.seconds.toFixed(0)} s`,
  );
  const serve = async (readLogWrites: boolean) => {
    const app = await buildApp({
      db: db.handle.db,
      config: loadConfig({ LOG_LEVEL: 'silent' }, null),
      logger: false,
      readLogWrites,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
  const withLog = await serve(true);
  try {
    const withoutLog = await serve(false);
    try {
      const client = async (app: typeof withLog) =>
        signIn(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
      await measureAccessLog(
        db,
        async () => ({ withLog: await client(withLog), withoutLog: await client(withoutLog) }),
        ROUNDS,
        log,
      );
    } finally {
      await withoutLog.close();
    }
  } finally {
    await withLog.close();
  }
}

/**
 * `BENCH_ONLY=audit`: issue 23's targets (audit-chain-bench.ts): the chain of BENCH_AUDIT_ENTRIES
 * (4,000,000) entries verified, and a booking and a patient edit with the chain and reason
 * triggers on and off. PostgreSQL only unless BENCH_AUDIT_PGLITE=1 (the target is PostgreSQL's).
 */
async function auditOnly(db: BenchDatabase) {
  const started = performance.now();
  const seed = await seedAuditEntries(db.handle, AUDIT_ENTRIES, log);
  const verify = await measureVerify(db.handle);
  log(`  verified in ${verify.seconds.toFixed(1)} s (${os.loadavg()[0]!.toFixed(2)} load)`);
  let writes: Awaited<ReturnType<typeof measureChainOverhead>> | null = null;
  await onlyCase(db, async (client) => {
    writes = await measureChainOverhead(db.handle, client, log);
  });
  for (const line of formatAuditChain(db.label, { seed, verify, writes })) log(`  ${line}`);
  log(`${db.label}: done in ${seconds(started)} s`);
}

function commit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main() {
  const started = performance.now();
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) log('BENCH_DATABASE_URL not set: PGlite only');
  const openers: (() => Promise<BenchDatabase>)[] = [
    ...(serverUrl ? [() => throwawayPostgres(serverUrl)] : []),
    temporaryPglite,
  ];
  const results: BenchResults = {
    date: new Date().toISOString(),
    commit: commit(),
    runs: [],
    shell: { bytes: null, note: 'n/a' },
    coldStartMs: [],
    totalSeconds: 0,
    loadAverage: { start: os.loadavg()[0]!, end: 0, cpus: os.cpus().length },
  };

  // Ctrl+C must not leave a throwaway database behind.
  let current: BenchDatabase | null = null;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log('interrupted: removing the bench database');
      void (current?.dispose() ?? Promise.resolve()).finally(() => process.exit(130));
    });
  }

  const only = process.env.BENCH_ONLY;
  // `BENCH_ONLY=labels`: the label PDF needs no database (issue 10).
  if (only === 'labels') {
    log(await measureLabels());
    return;
  }
  for (const [index, open] of openers.entries()) {
    const db = await open();
    current = db;
    try {
      if (only === 'visits') {
        log(`\n${db.label}: issue 9 cases only`);
        await visitsOnly(db);
        continue;
      }
      if (only === 'probe-code') {
        log(`\n${db.label}: issue 10 probe-code case only`);
        await probeCodeOnly(db);
        continue;
      }
      if (only === 'hl7') {
        log(`\n${db.label}: issue 12 laboratory messages only`);
        await measureHl7(db, ADMIN, log);
        continue;
      }
      if (only === 'import') {
        log(`\n${db.label}: issue 12 data import only`);
        await onlyCase(db, async (client) => {
          for (const line of await measureImport(db, client)) log(`  ${line}`);
        });
        continue;
      }
      if (only === 'import-health') {
        log(`\n${db.label}: issue 20 health during an import only`);
        await ensureInitialAdmin(db.handle.db, ADMIN);
        await measureImportHealth(db, ADMIN, log);
        continue;
      }
      if (only === 'nodes') {
        // Several processes on one database: PostgreSQL only (issue 25, ADR 057).
        if (!db.url) continue;
        log(`\n${db.label}: issue 25 one node and two behind nginx only`);
        await measureNodes(db, db.url, ADMIN, log);
        continue;
      }
      if (only === 'probes') {
        log(`\n${db.label}: issue 10 samples list only`);
        await probesOnly(db);
        continue;
      }
      if (only === 'backup') {
        log(`\n${db.label}: issue 25 backup and restore only`);
        if (serverUrl) await measureBackup(db, serverUrl, ADMIN, log);
        continue;
      }
      if (only === 'dashboard') {
        if (db.label === 'PGlite' && !process.env.BENCH_DASHBOARD_PGLITE) {
          log(`\n${db.label}: dashboard skipped (BENCH_DASHBOARD_PGLITE=1 to run it)`);
          continue;
        }
        log(`\n${db.label}: issue 26 dashboard only`);
        await dashboardOnly(db);
        continue;
      }
      if (only === 'access-log') {
        if (!db.url) continue;
        log(`\n${db.label}: issue 24 read log only`);
        await accessLogOnly(db);
        continue;
      }
      if (only === 'audit') {
        if (db.label === 'PGlite' && !process.env.BENCH_AUDIT_PGLITE) {
          log(`\n${db.label}: audit chain skipped (BENCH_AUDIT_PGLITE=1 to run it)`);
          continue;
        }
        log(
          `\n${db.label}: issue 23 audit chain only (load ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')})`,
        );
        await auditOnly(db);
        continue;
      }
      if (only === 'report') {
        log(`\n${db.label}: issue 12 report only`);
        await reportOnly(db);
        continue;
      }
      results.runs.push(await benchDatabase(db, index === 0 ? results.shell : null));
    } finally {
      current = null;
      await db.dispose();
    }
  }

  if (only === 'visits') {
    log(`\n${measureMonthSlots()}`);
    return;
  }
  if (only === 'probe-code') return;
  if (only === 'probes' || only === 'dashboard' || only === 'access-log' || only === 'audit')
    return;
  if (['hl7', 'import', 'import-health', 'report', 'nodes', 'backup'].includes(only ?? '')) return;
  log(`\n${measureMonthSlots()}`);
  log(await measureLabels());
  log('\ncold start');
  results.coldStartMs = await measureColdStart(COLD_STARTS).catch((error: unknown) => {
    log(`  cold start failed: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  results.totalSeconds = (performance.now() - started) / 1000;
  results.loadAverage.end = os.loadavg()[0]!;
  console.log(`\n${formatResults(results)}`);
  await writeResults(results);
  log(`results written to ${RESULTS_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
