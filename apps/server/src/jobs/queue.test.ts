import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, runMigrations } from '../db/client.js';
import type { DatabaseHandle } from '../db/client.js';
import { migrateDatabase } from '../db/roles.js';
import { appServerUrl } from '../test/harness.js';
import { databaseUrl } from '../test/server-database.js';
import { dropDatabase } from '../db/drop-database.js';

/**
 * The queue on a database that outlives the app: a PGlite directory on disk, or with
 * TEST_DATABASE_URL a database of its own on that server. Each `open` is a process restart.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function withServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

async function durableDatabase(): Promise<() => Promise<DatabaseHandle>> {
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-jobs-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return () => openDatabase({ kind: 'pglite', dataDir });
  }
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withServer((client) => client.query(`CREATE DATABASE "${name}"`));
  cleanups.push(() => withServer((client) => dropDatabase(client, name)));
  // As the restricted app role when the lane has one; the owner migrates (startPortal).
  return () =>
    openDatabase({ kind: 'postgres', url: databaseUrl(appServerUrl ?? serverUrl, name), max: 4 });
}

/** Starts the portal as main.ts does: migrate, build with jobs, ready. */
async function startPortal(open: () => Promise<DatabaseHandle>) {
  const handle = await open();
  if (handle.kind === 'postgres' && appServerUrl) {
    const { rows } = await handle.executeSql('select current_database() as name');
    await migrateDatabase(handle, databaseUrl(serverUrl!, String(rows[0]?.name)));
  } else {
    await runMigrations(handle);
  }
  const config = loadConfig({ LOG_LEVEL: 'silent' }, null);
  const app = await buildApp({
    db: handle.db,
    config,
    logger: false,
    jobs: { db: handle, pollingIntervalSeconds: 0.5 },
  });
  return {
    app,
    handle,
    /** As main.ts shuts down: the app (and with it the queue) first, then the database. */
    async stop() {
      await app.close();
      await handle.close();
    },
  };
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the job');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('job queue in the database', () => {
  // Opens the database twice inside the test: PGlite on disk alone can take 10 s on a busy machine.
  const timeout = 120_000;

  it('runs a job sent before a restart exactly once after it', { timeout }, async () => {
    const open = await durableDatabase();

    // First run: the job is stored, but this process has no handler for it and then stops.
    const first = await startPortal(open);
    await first.app.ready();
    expect(first.app.jobs.running).toBe(true);
    const id = await first.app.jobs.send('test.restart', { patient_id: 7 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await first.stop();
    expect(first.app.jobs.running).toBe(false);

    // Second run: the handler, registered at build time as modules do, picks it up.
    const second = await startPortal(open);
    const seen: { data: unknown; id: string }[] = [];
    second.app.jobs.handle('test.restart', (data, job) => {
      seen.push({ data, id: job.id });
      return Promise.resolve();
    });
    await second.app.ready();
    await until(() => seen.length > 0, 20_000);
    // Several polling rounds later it has still run only once, and it is stored as completed.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(seen).toEqual([{ data: { patient_id: 7 }, id }]);
    const { rows } = await second.handle.executeSql(
      'select state from pgboss.job where id = $1 union all select state from pgboss.archive where id = $1',
      [id],
    );
    expect(rows).toEqual([{ state: 'completed' }]);
    await second.stop();
  });

  it('refuses to send when the app was built without a queue', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent' }, null);
    // No database is needed: nothing may reach it.
    const app = await buildApp({ db: null as never, config, logger: false });
    expect(app.jobs.running).toBe(false);
    await expect(app.jobs.send('test.none', {})).rejects.toThrow(/not running/);
    await app.close();
  });
});
