/**
 * Every GET answer of the API, walked as staff without `patients.identity.read` (ADR 053): no
 * answer carries a patient's PESEL in clear, and those that carry one show it masked. The roles
 * of this file hold every permission of their real table but that one (an administrator, who
 * reaches every list, and a doctor); the monitor, who never holds it, is walked as it is.
 * Also: the patients search does not match the digits such a user does not see.
 */
import { maskPesel } from '@portal/shared';
import type * as Shared from '@portal/shared';
import type * as Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../db/client.js';
import { safetyAlerts, visits } from '../db/schema.js';
import { createTestApp } from './harness.js';
import type { ReadyAdmin, ReadyDoctor, ReadyMonitor, TestApp } from './harness.js';
import { registerPatient } from './patients-fixture.js';
import { insertProbe } from './probe-fixture.js';
import type { RouteKey } from './routes.js';

const registered = vi.hoisted((): RouteKey[] => {
  // As access-matrix.test.ts: fresh modules, so that the mocks below reach the app's imports.
  vi.resetModules();
  return [];
});
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof Fastify>();
  const { recordingFactory } = await import('./routes.js');
  return { ...actual, default: recordingFactory(actual.default, registered) };
});
vi.mock('@portal/shared', async (importOriginal) => {
  const actual = await importOriginal<typeof Shared>();
  const without = (role: 'admin' | 'doctor') =>
    actual.ROLE_PERMISSIONS[role].filter((permission) => permission !== 'patients.identity.read');
  return {
    ...actual,
    ROLE_PERMISSIONS: {
      ...actual.ROLE_PERMISSIONS,
      admin: without('admin'),
      doctor: without('doctor'),
    },
  };
});

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let monitor: ReadyMonitor;
let pesel: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unit = await t.unit();
  doctor = await t.readyDoctor(unit.id);
  monitor = await t.readyMonitor([unit.id]);
  const patient = await registerPatient(t, doctor, { surname: 'Ukryty', firstname: 'Pesel' });
  ids.patient = patient.id;
  const { rows } = await t.handle.executeSql(`select pesel from patients where id = ${patient.id}`);
  pesel = String(rows[0]!.pesel);
  // Written directly: booking needs the unit's calendar, which this walk does not need.
  const [visit] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patient.id,
        unit_id: unit.id,
        doctor_id: doctor.doctor.id,
        date: '2026-01-05',
        started_at: '09:00',
        ended_at: '09:30',
      })
      .returning({ id: visits.id }),
  );
  ids.visit = visit!.id;
  ids.probe = (await insertProbe(t.db, doctor.session.user.id, patient.id)).id;
  const [alert] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx
      .insert(safetyAlerts)
      .values({
        patient_id: patient.id,
        rule: 'hys_law',
        probe_id: ids.probe,
        details: { alt: 200, alt_uln: 59, bilirubine: 3, bilirubine_uln: 1.2 },
      })
      .returning({ id: safetyAlerts.id }),
  );
  ids.alert = alert!.id;
});
afterAll(async () => {
  await t?.close();
  // Test files share their worker's modules (isolate is off): the files after this one must
  // load the real permission table again, not this file's.
  vi.doUnmock('@portal/shared');
  vi.doUnmock('fastify');
  vi.resetModules();
});

/** The answers of every GET route with each of the fixture's ids in its path parameters. */
async function walk(token: string) {
  const answers: { route: string; body: string }[] = [];
  const routes = registered.filter(
    (route) =>
      route.method === 'GET' &&
      route.url.startsWith('/api') &&
      !route.url.startsWith('/api/docs') &&
      // These GETs set a new password (and end the account's sessions): not reads.
      !route.url.includes('/print_') &&
      // A patient's own copy is the complete record by design (ADR 054), for `patients.export`.
      route.url !== '/api/patients/:id/export.json',
  );
  for (const route of new Map(routes.map((r) => [r.url, r])).values()) {
    const urls = route.url.includes(':')
      ? Object.values(ids).map((id) => route.url.replace(/:[A-Za-z_]+/g, String(id)))
      : [route.url];
    for (const url of urls) {
      const queries: Record<string, string>[] = [
        {},
        { patientIds: String(ids.patient), patient_id: String(ids.patient), search: 'Ukryty' },
      ];
      for (const query of queries) {
        const res = await t.request('GET', url.replace(/\*$/, 'x'), { token, query });
        if (res.statusCode === 200 && /json/.test(String(res.headers['content-type']))) {
          answers.push({ route: `${route.url} ${JSON.stringify(query)}`, body: res.body });
        }
      }
    }
  }
  return answers;
}

describe('answers of staff without patients.identity.read', () => {
  it.each([
    ['an administrator', () => admin.session.token],
    ['a doctor', () => doctor.session.token],
    ['a monitor', () => monitor.session.token],
  ])(
    'never carry a PESEL in clear: %s',
    async (who, token) => {
      const answers = await walk(token());
      const leaking = answers.filter((answer) => answer.body.includes(pesel));
      expect(leaking.map((answer) => answer.route)).toEqual([]);
      if (who === 'a monitor') return;
      // The walk reached the answers that carry a PESEL: masked there.
      const masked = new Set(
        answers
          .filter((answer) => answer.body.includes(maskPesel(pesel)))
          .map((answer) => answer.route.split(' ')[0]),
      );
      // Visits, samples and alerts name the patient without a PESEL: nothing to mask there.
      const expected = [
        '/api/patients',
        '/api/patients/cards',
        '/api/patients/options',
        '/api/patients/all',
        '/api/patients/:id',
        '/api/patients/:id/basic',
        '/api/visits/overdue',
      ];
      expect([...masked]).toEqual(expect.arrayContaining(expected));
    },
    240_000,
  );
});

describe('the patients search of staff without patients.identity.read', () => {
  const found = async (token: string, search: string) => {
    const [list, options] = await Promise.all([
      t.request('GET', '/api/patients', { token, query: { search } }),
      t.request('GET', '/api/patients/options', { token, query: { search } }),
    ]);
    const listIds = list.json<{ data: { id: number }[] }>().data.map((p) => p.id);
    const optionIds = options.json<{ data: { id: number }[] }>().data.map((p) => p.id);
    expect(optionIds.includes(ids.patient!)).toBe(listIds.includes(ids.patient!));
    return listIds.includes(ids.patient!);
  };

  it('matches the first six digits, never the hidden ones', async () => {
    const token = doctor.session.token;
    expect(await found(token, pesel.slice(0, 6))).toBe(true);
    expect(await found(token, pesel.slice(0, 4))).toBe(true);
    expect(await found(token, pesel.slice(0, 2))).toBe(true);
    expect(await found(token, 'Ukryty')).toBe(true);
    expect(await found(token, `Ukryty ${pesel.slice(0, 6)}`)).toBe(true);
    // The whole PESEL, its seventh digit on, or a run across the mask's edge: nothing.
    expect(await found(token, pesel)).toBe(false);
    expect(await found(token, pesel.slice(0, 7))).toBe(false);
    expect(await found(token, pesel.slice(6))).toBe(false);
    expect(await found(token, pesel.slice(4, 9))).toBe(false);
    expect(await found(token, `Ukryty ${pesel}`)).toBe(false);
  });

  it('matches no PESEL digit for a monitor, who sees none', async () => {
    const token = monitor.session.token;
    expect(await found(token, 'Ukryty')).toBe(true);
    expect(await found(token, pesel.slice(0, 6))).toBe(false);
    expect(await found(token, pesel)).toBe(false);
  });
});
