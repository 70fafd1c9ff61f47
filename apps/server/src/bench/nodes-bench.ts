import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureInitialAdmin } from '../modules/admins/index.js';
import { throughput } from './cases.js';
import type { Client } from './cases.js';
import type { BenchDatabase } from './databases.js';
import type { LoadResult } from './load-worker.js';
import { nginxPresent, portalNode, startNginx } from './portal-nodes.js';
import type { Nginx } from './portal-nodes.js';
import { seedStudy } from './seed.js';

/**
 * `BENCH_ONLY=nodes` (ADR 057): the plain patients page at 100,000 patients (BENCH_PATIENTS) on
 * PostgreSQL, 16 clients, served by one portal process directly and by two behind nginx, in the
 * same run, with the nodes' CPU time per request (from /proc) for the capacity estimate.
 * BENCH_BASELINE=<another build's dist/main.js> also measures one node of that build directly,
 * alternating with this build's node (twice each), so that a change is judged in one run.
 */
const CLIENTS = 16;
const MS = 8_000;
const PAGE = '/api/patients?limit=20&offset=0';
const PROXY_PORT = 3250;
const NODE_PORTS = [3251, 3252];
const BASELINE_PORT = 3253;

/** user+system CPU time of a process in ms (Linux /proc; clock ticks are 100 a second). */
async function cpuMs(pid: number | null): Promise<number> {
  if (pid === null) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function signIn(baseUrl: string, admin: { login: string; password: string }) {
  const res = await fetch(`${baseUrl}/api/auth/login/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${res.status}`);
  return { baseUrl, headers: { authorization: `Bearer ${body.access_token}` } } as Client;
}

export async function measureNodes(
  db: BenchDatabase,
  databaseUrl: string,
  admin: { login: string; password: string },
  log: (line: string) => void,
): Promise<void> {
  if (!nginxPresent()) {
    log('  nginx is not installed (apt-get install nginx): skipped');
    return;
  }
  await ensureInitialAdmin(db.handle.db, admin);
  const found = await db.handle.executeSql('select id from users where login = $1', [admin.login]);
  const patients = Number(process.env.BENCH_PATIENTS ?? 100_000);
  const seed = await seedStudy(db.handle, Number(found.rows[0]?.id), log, patients);
  log(`  ${seed.patients} patients seeded in ${seed.seconds.toFixed(0)} s`);
  const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TRACKING_PROVIDER: 'fake' };
  const nodes = NODE_PORTS.map((port) => portalNode(port, env));
  const baselineEntry = process.env.BENCH_BASELINE;
  const baseline = baselineEntry ? portalNode(BASELINE_PORT, env, baselineEntry) : null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-nodes-bench-'));
  let proxy: Nginx | null = null;
  try {
    for (const node of nodes) await node.start();
    await baseline?.start();
    const nginx = await startNginx(dir, PROXY_PORT, NODE_PORTS);
    proxy = nginx;
    const run = async (label: string, baseUrl: string, measured: typeof nodes) => {
      const client = await signIn(baseUrl, admin);
      // Warm-up: JIT, prepared statements, the pools' connections, the total's memory.
      await throughput(client, PAGE, CLIENTS, 2_000);
      const before = await Promise.all(measured.map((node) => cpuMs(node.pid())));
      const load = os.loadavg()[0]!;
      const result: LoadResult = await throughput(client, PAGE, CLIENTS, MS);
      const after = await Promise.all(measured.map((node) => cpuMs(node.pid())));
      const cpu = after.reduce((sum, ms, i) => sum + ms - before[i]!, 0);
      const perRequest = result.requests ? cpu / result.requests : 0;
      log(
        `  ${label.padEnd(28)} ${result.perSecond.toFixed(0)} requests/s, p50 ${result.p50Ms.toFixed(1)} ms, ` +
          `p95 ${result.p95Ms.toFixed(1)} ms, ${result.failed} failed; node CPU ${perRequest.toFixed(2)} ms/request ` +
          `(load ${load.toFixed(1)} on ${os.cpus().length} cores)`,
      );
      return { result, perRequest };
    };
    if (baseline) {
      for (let round = 0; round < 2; round += 1) {
        await run('baseline build, one node', baseline.url, [baseline]);
        await run('this build, one node', nodes[0]!.url, [nodes[0]!]);
      }
    }
    const one = await run('one node, direct', nodes[0]!.url, [nodes[0]!]);
    const two = await run('two nodes through nginx', nginx.url, nodes);
    log(
      `  two through nginx / one direct: ${(two.result.perSecond / one.result.perSecond).toFixed(2)}× requests/s, ` +
        `p95 ${(two.result.p95Ms / one.result.p95Ms).toFixed(2)}×`,
    );
  } finally {
    await proxy?.stop();
    for (const node of nodes) await node.stop();
    await baseline?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
