import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import type { DatabaseHandle } from '../db/client.js';
import { sessions } from '../db/schema.js';
import { tokenDigest } from '../lib/tokens.js';
import { FakeTrackingProvider } from '../modules/shipments/index.js';
import { PUBLIC_URL, REFRESH_COOKIE, appServerUrl, createTestApp } from '../test/harness.js';
import type { ReadyAdmin, TestApp } from '../test/harness.js';
import { readyPatient, registerPatient } from '../test/patients-fixture.js';
import { databaseUrl } from '../test/server-database.js';
import { SESSION_MEMORY_MS, forgetSessions } from './session-check.js';

/**
 * The session check is remembered per access-token digest for a few seconds (ADR 057); every
 * path that ends a session or changes what the check answers forgets it at once, on this node
 * and (PostgreSQL) on every other node.
 */

let t: TestApp;
let admin: ReadyAdmin;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
});
afterAll(async () => {
  await t?.close();
});

const get = (token: string, url = '/api/units') => t.request('GET', url, { token });
const statusOf = async (token: string, url?: string) => (await get(token, url)).statusCode;

describe('the remembered session check on one node', () => {
  it('is remembered: a revocation no request announces shows once it is forgotten', async () => {
    const { session } = await t.readyAdmin();
    expect(await statusOf(session.token)).toBe(200);
    // Behind the API's back (no write request, no notification): the memory still answers.
    await t.db
      .update(sessions)
      .set({ revoked_at: new Date() })
      .where(eq(sessions.id, (await sessionIdOf(session.token))!));
    expect(await statusOf(session.token)).toBe(200);
    forgetSessions(t.db);
    expect(await statusOf(session.token)).toBe(401);
  });

  it('refuses a token at once after its user signs out', async () => {
    // Signing out ends every session of the user: an administrator of this test's own.
    const { session } = await t.readyAdmin();
    expect(await statusOf(session.token)).toBe(200);
    const out = await t.request('POST', '/api/auth/logout', { token: session.token });
    expect(out.statusCode).toBeLessThan(300);
    expect(await statusOf(session.token)).toBe(401);
  });

  it('refuses the old token at once after a password change; the new one works', async () => {
    const created = await t.admin();
    const first = await t.login('admin', created.login, created.password);
    const changed = await t.changePassword(first, created.password);
    expect(await statusOf(changed.token)).toBe(200);
    const again = await t.changePassword(changed, 'Wybrane-Haslo-2026', 'Jeszcze-Inne-Haslo-2027');
    expect(await statusOf(changed.token)).toBe(401);
    expect(await statusOf(again.token)).toBe(200);
  });

  it('refuses a deleted doctor’s token at once', async () => {
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    expect(await statusOf(doctor.session.token)).toBe(200);
    const res = await t.request('DELETE', `/api/doctors/${doctor.doctor.id}`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(await statusOf(doctor.session.token)).toBe(401);
  });

  it('answers for a doctor’s new unit at once after the move', async () => {
    const [home, other] = [await t.unit(), await t.unit()];
    const doctor = await t.readyDoctor(home.id);
    const colleague = await t.readyDoctor(other.id);
    const patient = await registerPatient(t, colleague);
    const url = `/api/patients/${patient.id}/basic`;
    expect(await statusOf(doctor.session.token, url)).not.toBe(200);
    const moved = await t.request('PUT', `/api/doctors/${doctor.doctor.id}`, {
      token: admin.session.token,
      body: {
        firstname: doctor.doctor.firstname,
        surname: doctor.doctor.surname,
        email: doctor.doctor.email,
        phone_number: doctor.doctor.phone_number,
        unit_id: other.id,
        version: doctor.doctor.version,
      },
    });
    expect(moved.statusCode).toBe(200);
    expect(await statusOf(doctor.session.token, url)).toBe(200);
  });

  it('refuses a deleted patient’s token at once', async () => {
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const patient = await readyPatient(t, doctor);
    expect(await statusOf(patient.session.token, '/api/me')).toBe(200);
    const res = await t.request('DELETE', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(await statusOf(patient.session.token, '/api/me')).toBe(401);
  });

  it('refuses the session’s access token at once when a spent refresh token comes back', async () => {
    const { session } = await t.readyAdmin();
    const refresh = (cookie: string) =>
      t.request('POST', '/api/auth/refresh', { cookies: { [REFRESH_COOKIE]: cookie } });
    const rotated = await refresh(session.refreshCookie);
    expect(rotated.statusCode).toBe(200);
    const access = rotated.json<{ access_token: string }>().access_token;
    expect(await statusOf(access)).toBe(200);
    // The old refresh token again (answered 401): the whole session ends.
    expect((await refresh(session.refreshCookie)).statusCode).toBe(401);
    expect(await statusOf(access)).toBe(401);
  });
});

async function sessionIdOf(token: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.access_token_hash, tokenDigest(token)));
  return row?.id;
}

/** Two API nodes in this process, each with its own pool and LISTEN connection (ADR 056). */
const serverUrl = process.env.TEST_DATABASE_URL;
describe.runIf(serverUrl)('the remembered session check on two nodes (PostgreSQL)', () => {
  const nodes: { app: FastifyInstance; handle: DatabaseHandle }[] = [];
  beforeAll(async () => {
    const url = databaseUrl(appServerUrl ?? serverUrl!, t.databaseName!);
    for (let i = 0; i < 2; i += 1) {
      const handle = await openDatabase({ kind: 'postgres', url, max: 4 });
      const config = loadConfig(
        { PUBLIC_URL, LOG_LEVEL: 'silent', DATABASE_URL: url, TRACKING_PROVIDER: 'fake' },
        null,
      );
      const app = await buildApp({
        db: handle.db,
        config,
        logger: false,
        secretKey: randomBytes(32),
        trackingProvider: new FakeTrackingProvider(),
      });
      await app.ready();
      nodes.push({ app, handle });
    }
  });
  afterAll(async () => {
    for (const node of nodes) {
      await node.app.close();
      await node.handle.close();
    }
  });

  /**
   * Whether the other node refuses the token well before the memory would expire on its own:
   * PostgreSQL passes a notification to each listening node on its own time, so the other node
   * hears it a moment (milliseconds) after the writer's answer, not strictly before (ADR 057).
   */
  async function refusedWithin(token: string, node: number): Promise<boolean> {
    const deadline = Date.now() + SESSION_MEMORY_MS / 3;
    for (;;) {
      if ((await on(node, 'GET', '/api/units', token)).statusCode === 401) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const on = (node: number, method: 'GET' | 'POST' | 'DELETE', url: string, token: string) =>
    nodes[node]!.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

  it('a sign-out on one node is refused on the other as soon as it hears (five rounds)', async () => {
    const own = await t.readyAdmin();
    for (let round = 0; round < 5; round += 1) {
      const signedIn = await nodes[round % 2]!.app.inject({
        method: 'POST',
        url: '/api/auth/login/admin',
        payload: { login: own.login, password: own.password },
      });
      const token = signedIn.json<{ access_token: string }>().access_token;
      // Remembered on both nodes.
      for (const node of [0, 1]) {
        expect((await on(node, 'GET', '/api/units', token)).statusCode).toBe(200);
        expect((await on(node, 'GET', '/api/units', token)).statusCode).toBe(200);
      }
      const out = await on(round % 2, 'POST', '/api/auth/logout', token);
      expect(out.statusCode).toBeLessThan(300);
      expect(await refusedWithin(token, (round + 1) % 2)).toBe(true);
    }
  });

  it('a doctor deleted on one node is refused on the other as soon as it hears', async () => {
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    expect((await on(1, 'GET', '/api/units', doctor.session.token)).statusCode).toBe(200);
    const res = await on(0, 'DELETE', `/api/doctors/${doctor.doctor.id}`, admin.session.token);
    expect(res.statusCode).toBe(200);
    expect(await refusedWithin(doctor.session.token, 1)).toBe(true);
  });
});
