import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../app.js';
import type { BuildOptions } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, runMigrations } from '../db/client.js';
import type { DatabaseHandle } from '../db/client.js';
import { dropDatabase } from '../db/drop-database.js';
import { migrateDatabase } from '../db/roles.js';
import { appServerUrl, pgliteTemplate } from './harness.js';
import { databaseUrl } from './server-database.js';

const serverUrl = process.env.TEST_DATABASE_URL;

async function withServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The portal on a database that outlives it, for tests of what survives a restart (the job
 * queue, the tracking job): a PGlite directory on disk, or with TEST_DATABASE_URL a database of
 * its own on that server. Each `start` is a process start as main.ts does it: open, migrate,
 * build with the job queue; `stop` shuts down as main.ts does. Call `cleanup` in `afterAll`.
 */
export function restartablePortals(prefix: string) {
  const cleanups: (() => Promise<void>)[] = [];

  /** A new durable database; the returned function opens it (a process start). */
  async function durableDatabase(): Promise<() => Promise<DatabaseHandle>> {
    if (!serverUrl) {
      const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      // The first start finds the migrated template in its empty directory, as a first start of
      // the portal finds the build's image, instead of a fresh cluster to migrate (ADR 065).
      let template = pgliteTemplate();
      return async () => {
        const loadDataDir = template ? await template : undefined;
        template = null;
        return openDatabase({ kind: 'pglite', dataDir, ...(loadDataDir ? { loadDataDir } : {}) });
      };
    }
    const name = `t_${randomBytes(8).toString('hex')}`;
    await withServer((client) => client.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => withServer((client) => dropDatabase(client, name)));
    // As the restricted app role when the lane has one; the owner migrates (start).
    return () =>
      openDatabase({ kind: 'postgres', url: databaseUrl(appServerUrl ?? serverUrl, name), max: 4 });
  }

  /** Starts the portal as main.ts does: open, migrate, build with jobs (not yet ready). */
  async function start(
    open: () => Promise<DatabaseHandle>,
    options: { env?: Record<string, string> } & Pick<
      BuildOptions,
      'trackingProvider' | 'secretKey'
    > = {},
  ) {
    const handle = await open();
    if (handle.kind === 'postgres' && appServerUrl) {
      const { rows } = await handle.executeSql('select current_database() as name');
      await migrateDatabase(handle, databaseUrl(serverUrl!, String(rows[0]?.name)));
    } else {
      await runMigrations(handle);
    }
    const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env }, null);
    const app = await buildApp({
      db: handle.db,
      config,
      logger: false,
      jobs: { db: handle, pollingIntervalSeconds: 0.5 },
      ...(options.trackingProvider ? { trackingProvider: options.trackingProvider } : {}),
      ...(options.secretKey ? { secretKey: options.secretKey } : {}),
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

  async function cleanup() {
    for (const step of cleanups.reverse()) await step();
  }

  return { durableDatabase, start, cleanup };
}
