import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, like } from 'drizzle-orm';
import type { Probe } from '@portal/shared';
import { labMessages, patients, probes, unmatchedResults } from '../../db/schema.js';
import type { JobHandler, JobQueue } from '../../jobs/queue.js';
import { SecretBox } from '../../lib/secrets.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { freshPesel, registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import {
  LAB_SIMULATOR_JOB,
  SIMULATOR_CONTROL_PREFIX,
  listeningUrl,
  notLaterThanNow,
  registerLabSimulatorJob,
  readAck,
  runLabSimulator,
  simulatedMessage,
  simulatorVariant,
} from './simulator.js';
import type { SimulatorRun } from './simulator.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let baseUrl: string;
/** The sample the switched-off test left waiting. */
let leftover = 0;
const key = randomBytes(32);
const secrets = new SecretBox(key);

async function configure(enabled: boolean) {
  const res = await t.request('POST', '/api/settings/synevo', {
    token: admin.session.token,
    body: {
      value: {
        login: 'synevo-sim',
        password: 'Haslo-Symulatora-1',
        unit_code: 'SIM-1',
        enable_results_import: enabled,
      },
    },
  });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ secretKey: key });
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  await configure(true);
  // Real HTTP: the simulator POSTs to the portal as the laboratory would.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = listeningUrl(t.app.server.address())!;
});
afterAll(() => t?.close());

const run = (batch = 100): Promise<SimulatorRun> =>
  runLabSimulator(t.db, secrets, { baseUrl, batch });

async function patientOf(sex: 'M' | 'K') {
  return registerPatient(t, doctor, { pesel: freshPesel(sex) });
}

/** A sample scanned in at the laboratory (arrived, status sent), without results. */
async function arrivedSample(
  patientId: number,
  extra: Parameters<typeof insertProbe>[3] = {},
): Promise<number> {
  const { id } = await insertProbe(t.db, doctor.session.user.id, patientId, {
    status: 'sent',
    arrived_at: new Date(),
    arrived_by: doctor.session.user.id,
    ...extra,
  });
  return id;
}

async function probeOf(id: number): Promise<Probe> {
  const res = await t.request('GET', `/api/probes/${id}`, { token: admin.session.token });
  expect(res.statusCode).toBe(200);
  return res.json<Probe>();
}

const simMessages = () =>
  t.db
    .select()
    .from(labMessages)
    .where(like(labMessages.control_id, `${SIMULATOR_CONTROL_PREFIX}%`));

describe('the laboratory simulator', () => {
  it('makes the same message again for a sample, every 10th deviating', () => {
    const sample = {
      id: 123,
      code: 'K0000123',
      typeOfTest: 'biochemistry' as const,
      dateOfSample: '2026-11-20',
      sex: 'K' as const,
      birthDate: '1950-03-14',
      drugCodes: [],
    };
    expect(simulatedMessage(sample, '2026-11-24')).toBe(simulatedMessage(sample, '2026-11-24'));
    const message = simulatedMessage(sample, '2026-11-24');
    expect(message).toContain('MSH|^~\\&|SYNEVO|SYNEVO-LAB|');
    expect(message).toContain('|SIM-123|');
    expect(message).toContain('|19500314|F');
    const variants = Array.from({ length: 40 }, (_, index) => simulatorVariant(index + 1));
    expect(variants.filter((v) => v === 'normal')).toHaveLength(36);
    expect(variants.filter((v) => v === 'out_of_norm')).toHaveLength(2);
    expect(variants.filter((v) => v.startsWith('malformed'))).toHaveLength(2);
    expect(readAck('MSH|^~\\&|x\rMSA|AE|SIM-1|OBX 1: bad\r', 'SIM-1')).toEqual({
      ack: 'AE',
      reason: 'OBX 1: bad',
    });
    expect(readAck('MSH|^~\\&|x\rMSA|AA|SIM-2|OK\r', 'SIM-1').ack).toBeNull();
  });

  it('sends nothing while the import is off or no password can be read', async () => {
    const patient = await patientOf('M');
    const id = await arrivedSample(patient.id);
    leftover = id;
    await configure(false);
    expect(await run()).toMatchObject({ skipped: 'disabled', sent: 0 });
    await configure(true);
    // No key to unseal the stored password: as PostgreSQL without PORTAL_SECRET_KEY.
    expect(await runLabSimulator(t.db, null, { baseUrl, batch: 100 })).toMatchObject({
      skipped: 'no_credentials',
      sent: 0,
    });
    expect(await simMessages()).toHaveLength(0);
    expect((await probeOf(id)).results_at).toBeNull();
  });

  it(
    'POSTs each arrived sample without results over HTTP, reads the ACKs, and sends nothing twice',
    { timeout: 120_000 },
    async () => {
      const woman = await patientOf('K');
      const man = await patientOf('M');
      // Not sent: one not yet scanned in, one whose results were entered already.
      const notArrived = (
        await insertProbe(t.db, doctor.session.user.id, man.id, { status: 'collected' })
      ).id;
      const withResults = await arrivedSample(man.id, {
        status: 'received',
        results_at: new Date(),
        alt: 20,
      });
      const drug = await arrivedSample(man.id, {
        type_of_test: 'drug_concentration',
        medicineIds: [7],
      });
      // Enough consecutive samples to meet every variant (they repeat every 40 ids).
      const ids = [drug];
      while (
        !['malformed_text', 'malformed_unit', 'out_of_norm'].every((variant) =>
          ids.some((id) => simulatorVariant(id) === variant),
        )
      ) {
        ids.push(await arrivedSample(ids.length % 2 === 0 ? woman.id : man.id));
      }
      // The sample of the previous test is waiting as well.
      const waiting = [leftover, ...ids];

      // At most `batch` per run.
      const first = await run(5);
      expect(first.sent).toBe(5);
      const rest = await run();
      const outcomes = [...first.outcomes, ...rest.outcomes];
      expect(outcomes.map((o) => o.probeId).sort((a, b) => a - b)).toEqual(
        [...waiting].sort((a, b) => a - b),
      );
      expect(first.failed + rest.failed).toBe(0);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe(200);
        expect(outcome.controlId).toBe(`SIM-${outcome.probeId}`);
        const malformed = simulatorVariant(outcome.probeId).startsWith('malformed');
        expect(outcome.ack).toBe(malformed ? 'AE' : 'AA');
        if (malformed) expect(outcome.reason).toMatch(/^OBX \d+: /);
      }

      // Results landed on every accepted sample, from HL7, with the laboratory's ranges.
      for (const id of waiting.filter((id) => !simulatorVariant(id).startsWith('malformed'))) {
        const probe = await probeOf(id);
        expect(probe.status).toBe('received');
        expect(probe.results_at).not.toBeNull();
        if (id === drug) {
          expect(probe.concentrations_results.concentrations).toEqual([
            { medicine_id: 7, value: expect.any(Number) as number },
          ]);
          expect(probe.concentrations_results.hours).toBeGreaterThan(0);
        } else {
          const values = probe.biochemistry_results;
          expect(Object.values(values).every((value) => typeof value === 'number')).toBe(true);
          expect(probe.concentration_range.alt?.source).toBe('laboratory');
          const outOfNorm = simulatorVariant(id) === 'out_of_norm';
          expect(probe.results_out_of_norm).toEqual(outOfNorm ? ['alt'] : []);
        }
      }

      // A refused message changed nothing on its sample and left no unmatched result.
      const refused = waiting.filter((id) => simulatorVariant(id).startsWith('malformed'));
      expect(refused.length).toBeGreaterThanOrEqual(2);
      const refusedRows = await t.db.select().from(probes).where(inArray(probes.id, refused));
      for (const row of refusedRows) {
        expect(row).toMatchObject({ status: 'sent', results_at: null, alt: null, version: 1 });
      }
      const refusedCodes = refusedRows.map((row) => row.code);
      expect(
        await t.db
          .select()
          .from(unmatchedResults)
          .where(inArray(unmatchedResults.probe_code, refusedCodes)),
      ).toHaveLength(0);
      const messages = await simMessages();
      expect(messages.filter((m) => m.status === 'rejected').map((m) => m.control_id)).toEqual(
        expect.arrayContaining(refused.map((id) => `SIM-${id}`)),
      );

      // A second run sends nothing new: accepted ones have results, refused ones were sent.
      expect(await run()).toMatchObject({ skipped: null, sent: 0 });
      expect(await simMessages()).toHaveLength(messages.length);
      expect((await probeOf(notArrived)).results_at).toBeNull();
      const [untouched] = await t.db.select().from(probes).where(eq(probes.id, withResults));
      expect(Number(untouched!.alt)).toBe(20);
      expect(untouched!.results_source).toBeNull();
    },
  );

  it('stops at an answer that is no ACK and sends the rest in a later run', async () => {
    const patient = await patientOf('K');
    const id = await arrivedSample(patient.id);
    // Nothing listens there: no answer at all.
    const closed = { ...(t.app.server.address() as AddressInfo), port: 1 };
    const failed = await runLabSimulator(t.db, secrets, {
      baseUrl: listeningUrl(closed),
      batch: 10,
    });
    expect(failed).toMatchObject({ sent: 1, failed: 1, accepted: 0 });
    expect(failed.outcomes[0]).toMatchObject({ probeId: id, status: 0, ack: null });
    const again = await run();
    expect(again.outcomes.map((o) => o.probeId)).toEqual([id]);
  });

  it('logs counts, control ids and reasons, never a message; a skip once, not every run', async () => {
    let handler: JobHandler | undefined;
    const scheduled: string[] = [];
    // The queue's two calls, recorded: the handler is then run by hand.
    const jobs = {
      handle: (name: string, work: JobHandler) => {
        expect(name).toBe(LAB_SIMULATOR_JOB);
        handler = work;
      },
      schedule: (name: string, cron: string) => scheduled.push(`${name} ${cron}`),
    } as unknown as JobQueue;
    const lines: string[] = [];
    const record = (details: object, message: string) =>
      lines.push(`${message} ${JSON.stringify(details)}`);
    registerLabSimulatorJob(jobs, {
      db: t.db,
      secrets,
      config: { enabled: true, cron: '* * * * *', batch: 50, url: null },
      address: () => t.app.server.address(),
      log: { info: record, warn: record },
    });
    expect(scheduled).toEqual(['lab.simulate * * * * *']);
    const job = { id: 'x', name: LAB_SIMULATOR_JOB };

    await configure(false);
    await handler!({}, job);
    await handler!({}, job);
    await configure(true);
    const patient = await patientOf('K');
    const ids: number[] = [];
    while (!ids.some((id) => simulatorVariant(id) === 'malformed_text')) {
      ids.push(await arrivedSample(patient.id));
    }
    await handler!({}, job);
    expect(lines.filter((line) => line.includes('"reason":"disabled"'))).toHaveLength(1);
    const sent = lines.find((line) => line.startsWith('laboratory simulator: results sent'));
    expect(sent).toContain(`"sent":${ids.length}`);
    expect(sent).toContain(`"control_id":"SIM-${ids.at(-1)!}"`);
    const [row] = await t.db
      .select({ birth_date: patients.birth_date })
      .from(patients)
      .where(eq(patients.id, patient.id));
    const log = lines.join('\n');
    for (const secret of [row!.birth_date, row!.birth_date.replaceAll('-', ''), 'MSH|', 'PID|']) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('the simulator never dates a result in the future', () => {
  // 00:56 in Warsaw on 28 November (UTC+1): the parser would refuse 09:30 of that day (AE 102).
  const night = new Date('2026-11-27T23:56:30Z');
  const morning = new Date('2026-11-28T09:00:00Z');

  it('takes the present minute on the same day before the wanted time', () => {
    expect(notLaterThanNow('2026-11-28', '0930', night)).toBe('202611280056');
    expect(notLaterThanNow('2026-11-28', '0800', night)).toBe('202611280056');
  });

  it('keeps the wanted time once it has passed, and on any other day', () => {
    expect(notLaterThanNow('2026-11-28', '0930', morning)).toBe('202611280930');
    expect(notLaterThanNow('2026-11-27', '0930', night)).toBe('202611270930');
  });

  it('a message made at night dates its analysis no later than then', () => {
    const sample = {
      id: 7,
      code: 'K0000007',
      typeOfTest: 'biochemistry' as const,
      dateOfSample: '2026-11-28',
      sex: 'M' as const,
      birthDate: '1950-03-14',
      drugCodes: [],
    };
    const message = simulatedMessage(sample, '2026-11-28', night);
    expect(message).not.toContain('202611280930');
    expect(message).not.toContain('202611280800');
    expect(message).toContain('202611280056');
  });
});
