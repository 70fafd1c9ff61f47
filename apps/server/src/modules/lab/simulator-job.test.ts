import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { labMessages, probes } from '../../db/schema.js';
import { SecretBox } from '../../lib/secrets.js';
import type { Actor } from '../../plugins/policy.js';
import { insertPatient } from '../../test/kit-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { restartablePortals } from '../../test/restartable-portal.js';
import { saveSetting } from '../settings/index.js';
import { LAB_SIMULATOR_JOB, simulatorVariant } from './simulator.js';

/** As shipments/job.test.ts: a database that outlives the app; each start is a process restart. */
const portals = restartablePortals('portal-lab-simulator');
afterAll(() => portals.cleanup());

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the simulator job');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the lab.simulate job', () => {
  it(
    'is scheduled only with LAB_SIMULATOR=on, and its run lands results over HTTP',
    { timeout: 180_000 },
    async () => {
      const key = randomBytes(32);
      const open = await portals.durableDatabase();

      // Off (the default): no handler, no schedule.
      const off = await portals.start(open, { secretKey: key });
      await off.app.ready();
      expect((await off.app.jobs.schedules()).map((s) => s.name)).not.toContain(LAB_SIMULATOR_JOB);
      await off.stop();

      const on = await portals.start(open, {
        env: { LAB_SIMULATOR: 'on', LAB_SIMULATOR_CRON: '*/5 * * * *' },
        secretKey: key,
      });
      // Port 0: the job finds the address the server listens on.
      await on.app.listen({ port: 0, host: '127.0.0.1' });
      expect(await on.app.jobs.schedules()).toContainEqual({
        name: LAB_SIMULATOR_JOB,
        cron: '*/5 * * * *',
      });
      const db = on.handle.db;
      const { patientId, adminUserId } = await insertPatient(db);
      const actor: Actor = {
        userId: adminUserId,
        sessionId: 0,
        login: 'test',
        role: 'admin',
        doctorId: null,
        unitId: null,
        changedPasswordAt: new Date(),
      };
      await saveSetting(db, new SecretBox(key), actor, 'synevo', {
        value: {
          login: 'synevo-job',
          password: 'Haslo-Symulatora-2',
          unit_code: 'SIM-2',
          enable_results_import: true,
        },
      });
      // An id the simulator answers normally for (its variants repeat every 40 ids).
      const { id } = await insertProbe(db, adminUserId, patientId, {
        status: 'sent',
        arrived_at: new Date(),
      });
      expect(simulatorVariant(id)).toBe('normal');

      await on.app.jobs.send(LAB_SIMULATOR_JOB, {});
      const resultsAt = async () => {
        const [row] = await db
          .select({ results_at: probes.results_at })
          .from(probes)
          .where(eq(probes.id, id));
        return row?.results_at ?? null;
      };
      await until(async () => (await resultsAt()) !== null, 60_000);
      const [message] = await db
        .select({ status: labMessages.status })
        .from(labMessages)
        .where(eq(labMessages.control_id, `SIM-${id}`));
      expect(message?.status).toBe('accepted');
      const [probe] = await db.select().from(probes).where(eq(probes.id, id));
      expect(probe).toMatchObject({ status: 'received', results_source: 'hl7' });
      await on.stop();

      // Switched off again: the schedule the last start stored is removed.
      const again = await portals.start(open, { secretKey: key });
      await again.app.ready();
      expect((await again.app.jobs.schedules()).map((s) => s.name)).not.toContain(
        LAB_SIMULATOR_JOB,
      );
      await again.stop();
    },
  );
});
