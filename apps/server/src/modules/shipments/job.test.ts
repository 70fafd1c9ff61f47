import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase, runMigrations } from '../../db/client.js';
import type { DatabaseHandle } from '../../db/client.js';
import { dropDatabase } from '../../db/drop-database.js';
import { migrateDatabase } from '../../db/roles.js';
import { probeSetKits } from '../../db/schema.js';
import { appServerUrl } from '../../test/harness.js';
import { databaseUrl } from '../../test/server-database.js';
import { FAKE_STEPS, FakeTrackingProvider } from './fake-provider.js';
import { REFRESH_JOB } from './job.js';
import { insertOrder, insertPatient, waybill } from './kit-fixture.js';

/** As jobs/queue.test.ts: a database that outlives the app; each start is a process restart. */
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
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-tracking-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return () => openDatabase({ kind: 'pglite', dataDir });
  }
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withServer((client) => client.query(`CREATE DATABASE "${name}"`));
  cleanups.push(() => withServer((client) => dropDatabase(client, name)));
  return () =>
    openDatabase({ kind: 'postgres', url: databaseUrl(appServerUrl ?? serverUrl, name), max: 4 });
}

async function startPortal(open: () => Promise<DatabaseHandle>) {
  const handle = await open();
  if (handle.kind === 'postgres' && appServerUrl) {
    const { rows } = await handle.executeSql('select current_database() as name');
    await migrateDatabase(handle, databaseUrl(serverUrl!, String(rows[0]?.name)));
  } else {
    await runMigrations(handle);
  }
  const config = loadConfig({ LOG_LEVEL: 'silent', TRACKING_REFRESH_CRON: '15 */3 * * *' }, null);
  const app = await buildApp({
    db: handle.db,
    config,
    logger: false,
    jobs: { db: handle, pollingIntervalSeconds: 0.5 },
    trackingProvider: new FakeTrackingProvider(),
  });
  await app.ready();
  return {
    app,
    handle,
    async stop() {
      await app.close();
      await handle.close();
    },
  };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the refresh job');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the shipments.refresh job', () => {
  it(
    'is scheduled, and a refresh sent before a restart runs after it',
    { timeout: 180_000 },
    async () => {
      const open = await durableDatabase();
      const first = await startPortal(open);
      expect(await first.app.jobs.schedules()).toContainEqual({
        name: REFRESH_JOB,
        cron: '15 */3 * * *',
      });
      const { patientId } = await insertPatient(first.handle.db);
      const { kitIds } = await insertOrder(first.handle.db, patientId, [waybill()]);
      const kitId = kitIds[0]!;
      // Due after this process is gone: only the next start can run it.
      await first.app.jobs.send(
        REFRESH_JOB,
        { kit_id: kitId },
        { startAfter: new Date(Date.now() + 2_000), singletonKey: `kit-${kitId}` },
      );
      await first.stop();

      const second = await startPortal(open);
      const statusOf = async () => {
        const [kit] = await second.handle.db
          .select({ last_status: probeSetKits.last_status })
          .from(probeSetKits)
          .where(eq(probeSetKits.id, kitId));
        return kit?.last_status ?? null;
      };
      await until(async () => (await statusOf()) !== null, 60_000);
      expect(await statusOf()).toBe(FAKE_STEPS[0]!.status);
      // The schedule is still stored once after the restart.
      const schedules = await second.app.jobs.schedules();
      expect(schedules.filter((s) => s.name === REFRESH_JOB)).toHaveLength(1);
      await second.stop();
    },
  );
});
