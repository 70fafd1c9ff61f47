import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * A minimal cold start measurement, kept until the cold-start part of issue 8 brings its own
 * with this signature: `node dist/main.js` on an empty temporary DATA_DIR, timed from spawn
 * until GET /api/health answers 200, then stopped with SIGTERM.
 */
const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

export async function measureColdStart(runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return times;
}

async function once(): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-cold-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.DATABASE_MIGRATION_URL;
  Object.assign(env, { PORT: String(port), DATA_DIR: path.join(dir, 'data') });
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN], { env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    while (performance.now() - started < 60_000) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then(async (r) => (await r.arrayBuffer(), r.status === 200))
        .catch(() => false);
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no answer from /api/health within 60 s');
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
