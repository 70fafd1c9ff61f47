import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSetKits } from '../../db/schema.js';
import { FAKE_STEPS, FakeTrackingProvider } from './fake-provider.js';
import { REFRESH_JOB } from './job.js';
import { insertOrder, insertPatient, waybill } from '../../test/kit-fixture.js';
import { restartablePortals } from '../../test/restartable-portal.js';

/** As jobs/queue.test.ts: a database that outlives the app; each start is a process restart. */
const portals = restartablePortals('portal-tracking');
afterAll(() => portals.cleanup());
const durableDatabase = portals.durableDatabase;

async function startPortal(open: Parameters<typeof portals.start>[0]) {
  const portal = await portals.start(open, {
    env: { TRACKING_REFRESH_CRON: '15 */3 * * *' },
    trackingProvider: new FakeTrackingProvider(),
  });
  await portal.app.ready();
  return portal;
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
