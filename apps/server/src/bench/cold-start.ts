import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { migrationsFolder } from '../db/client.js';
import { builtImage, currentManifest, imageFits } from '../db/pglite-image.js';
import type { ImageManifest } from '../db/pglite-image.js';

/**
 * The cold start as a new user meets it: `node dist/main.js` on an empty embedded data directory,
 * timed from spawn until `GET /api/health` first answers 200. Nothing is asserted here; the
 * bench prints the runs (ADR 020).
 */
const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const POLL_MS = 20;
/** A start slower than this is reported as a failure rather than waited for. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Variables of the caller's environment that would change what is measured. */
const OVERRIDDEN = [
  'DATABASE_URL',
  'DATABASE_MIGRATION_URL',
  'DATA_DIR',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'PORTAL_ADMIN_LOGIN',
  'PORTAL_ADMIN_PASSWORD',
  'PORTAL_SECRET_KEY',
];

export async function measureColdStart(runs: number): Promise<number[]> {
  const image = await imageStatus();
  if (image !== 'current')
    process.stderr.write(
      `cold start: the PGlite image is ${image} (npm run build makes it); measuring without it\n`,
    );
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await coldStartOnce());
  return times;
}

/** Whether dist/pglite-image.* exists and fits the migrations, as the server will judge it. */
async function imageStatus(): Promise<'current' | 'missing' | 'stale'> {
  let manifest: ImageManifest;
  try {
    manifest = JSON.parse(await readFile(builtImage.manifest, 'utf8')) as ImageManifest;
    await access(builtImage.tar);
  } catch {
    return 'missing';
  }
  return imageFits(manifest, await currentManifest(migrationsFolder)) ? 'current' : 'stale';
}

async function coldStartOnce(): Promise<number> {
  const dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'portal-cold-start-')), 'data');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of OVERRIDDEN) delete env[name];
  // DATA_DIR does not exist yet, as on a fresh checkout; the initial administrator gets a random
  // password, printed once, as on a real first start.
  Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });

  const started = performance.now();
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  try {
    for (;;) {
      if (exitCode !== undefined)
        throw new Error(`the server exited (${exitCode}) before answering:\n${output}`);
      if (performance.now() - started > START_TIMEOUT_MS)
        throw new Error(`no answer within ${START_TIMEOUT_MS} ms:\n${output}`);
      if (await healthy(port)) return Math.round(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await stop(child, exited);
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
      signal: AbortSignal.timeout(2_000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** SIGTERM (the portal checkpoints and closes its database), SIGKILL if that hangs. */
async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** A port nobody listens on now (the OS picks it); the server binds it a moment later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// `node dist/bench/cold-start.js [runs]` prints the runs alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 5);
  measureColdStart(Number.isInteger(runs) && runs > 0 ? runs : 5)
    .then((times) => {
      const sorted = [...times].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      console.log(`cold start, empty embedded database: ${times.join(', ')} ms (median ${median})`);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
