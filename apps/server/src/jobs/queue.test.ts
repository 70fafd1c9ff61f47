import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { inTransaction } from '../db/client.js';
import { settings } from '../db/schema.js';
import { STUDY_LOCK_SETTING } from '../lib/study-lock.js';
import { openTestDatabase } from '../test/harness.js';
import { JobQueue } from './queue.js';

import { restartablePortals } from '../test/restartable-portal.js';

/** The queue on a database that outlives the app; each start is a process restart. */
const portals = restartablePortals('portal-jobs');
afterAll(() => portals.cleanup());
const durableDatabase = portals.durableDatabase;
const startPortal = (open: Parameters<typeof portals.start>[0]) => portals.start(open);

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

  it(
    'skips jobs while the study is locked, as the study lock says (lib/study-lock.ts)',
    { timeout },
    async () => {
      const database = await openTestDatabase();
      const queue = new JobQueue(
        { db: database.handle, pollingIntervalSeconds: 0.5 },
        { error: (details, message) => console.error(message, details) },
      );
      const setLock = (locked: boolean) =>
        inTransaction(database.handle.db, null, async (tx) => {
          const value = { locked, locked_at: locked ? new Date().toISOString() : null, by: null };
          await tx
            .insert(settings)
            .values({ key: STUDY_LOCK_SETTING, value })
            .onConflictDoUpdate({ target: settings.key, set: { value } });
        });
      const seen: unknown[] = [];
      queue.handle('test.locked', (data) => {
        seen.push(data);
        return Promise.resolve();
      });
      try {
        await queue.start();
        await setLock(true);
        const skipped = await queue.send('test.locked', { n: 1 });
        const stateOf = async (id: string | null) =>
          (
            await database.handle.executeSql(
              'select state from pgboss.job where id = $1 union all select state from pgboss.archive where id = $1',
              [id],
            )
          ).rows[0]?.state;
        const deadline = Date.now() + 20_000;
        while ((await stateOf(skipped)) !== 'completed' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(await stateOf(skipped)).toBe('completed');
        expect(seen).toEqual([]);

        await setLock(false);
        await queue.send('test.locked', { n: 2 });
        await until(() => seen.length > 0, 20_000);
        expect(seen).toEqual([{ n: 2 }]);
      } finally {
        await queue.stop();
        await database.close();
      }
    },
  );
});
