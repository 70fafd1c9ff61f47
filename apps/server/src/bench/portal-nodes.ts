import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real portal processes and Debian's nginx in front of them, on loopback ports, for the test of
 * several nodes (nodes.test.ts) and the bench (nodes-bench.ts; ADR 056, ADR 057). Run from the
 * build (the bench) a node is dist/main.js, as `npm run serve` starts it; run from the sources
 * (the test, before any build) it is src/main.ts through tsx.
 */

const here = fileURLToPath(import.meta.url);
const serverRoot = path.resolve(path.dirname(here), '../..');
const repoRoot = path.resolve(serverRoot, '../..');
const fromBuild = here.endsWith('.js');
const nodeArgs = fromBuild
  ? [path.join(serverRoot, 'dist/main.js')]
  : ['--import', 'tsx', path.join(serverRoot, 'src/main.ts')];
export const NGINX = '/usr/sbin/nginx';
export const proxyInclude = path.join(repoRoot, 'deploy/nginx/portal-proxy.conf');

export const nginxPresent = () => existsSync(NGINX);

/** Waits until `url` answers 200, or fails with what the process printed. */
export async function waitUntilOk(url: string, timeoutMs: number, describe: () => string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${url} not ready in ${timeoutMs} ms\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface PortalNode {
  port: number;
  url: string;
  /** Starts the process and waits until /api/health/ready answers 200. */
  start(): Promise<void>;
  /** SIGTERM and the exit code (main.ts drains, then exits 0). */
  stop(): Promise<number | null>;
  /** What the process printed (the last 64 KiB), for failure messages. */
  output(): string;
  /** The running process's id (the bench reads its CPU time), null when stopped. */
  pid(): number | null;
}

/**
 * `entry` runs another build's main.js instead of this one (the bench compares a baseline build
 * with this one on the same database, in the same run).
 */
export function portalNode(port: number, env: Record<string, string>, entry?: string): PortalNode {
  let child: ChildProcess | null = null;
  let printed = '';
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString('utf8')).slice(-65_536);
  };
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    async start() {
      // BENCH_NODE_ARGS: node's own options, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
      const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
      const args = [...extra, ...(entry ? [entry] : nodeArgs)];
      const started = spawn(process.execPath, args, {
        cwd: serverRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          ...env,
          HOST: '127.0.0.1',
          PORT: String(port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout?.on('data', keep);
      started.stderr?.on('data', keep);
      await waitUntilOk(`${url}/api/health/ready`, 90_000, () => printed);
    },
    async stop() {
      const running = child;
      if (!running) return null;
      running.kill('SIGTERM');
      const code = await exited(running);
      child = null;
      return code;
    },
    output: () => printed,
    pid: () => child?.pid ?? null,
  };
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
  /** nginx's error log so far (why a request failed). */
  errors(): Promise<string>;
}

/**
 * nginx as the current user, with its own prefix, pid, logs and temporary files in `dir`,
 * proxying `port` to the given node ports through the deployed proxy settings.
 */
export async function startNginx(dir: string, port: number, nodePorts: number[]): Promise<Nginx> {
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  const servers = nodePorts
    .map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`)
    .join('\n');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${path.join(dir, kind)};`)
    .join('\n');
  const conf = `
# Written by apps/server/src/bench/portal-nodes.ts; the proxy settings are deploy's own.
${process.getuid?.() === 0 ? `user ${userInfo().username};` : ''}
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs/error.log')} warn;
events { worker_connections 512; }
http {
  access_log ${path.join(dir, 'logs/access.log')};
${temp}
  upstream portal {
    least_conn;
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      include ${proxyInclude};
    }
  }
}
`;
  const confFile = path.join(dir, 'nginx.conf');
  await writeFile(confFile, conf);
  let printed = '';
  const child = spawn(NGINX, ['-p', dir, '-c', confFile, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilOk(`${url}/api/health/live`, 30_000, () => printed);
  return {
    url,
    errors: () => readFile(path.join(dir, 'logs/error.log'), 'utf8').catch(() => ''),
    async stop() {
      child.kill('SIGQUIT'); // graceful: finishes open requests
      await exited(child);
    },
  };
}
