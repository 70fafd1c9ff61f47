import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { NodeLifecycle } from '../../lib/lifecycle.js';
import { PUBLIC_URL, appServerUrl, createTestApp, openTestDatabase } from '../../test/harness.js';
import type { TestApp, TestDatabase } from '../../test/harness.js';
import { databaseUrl, withServer } from '../../test/server-database.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
const serverUrl = process.env.TEST_DATABASE_URL;

let database: TestDatabase;
let app: FastifyInstance;
const lifecycle = new NodeLifecycle();
/** A second app without METRICS_TOKEN, whose users sign in (for the session-token check). */
let plain: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  const env: Record<string, string> = { PUBLIC_URL, LOG_LEVEL: 'silent', METRICS_TOKEN: TOKEN };
  // On PostgreSQL the app is configured as a PostgreSQL node (readiness asks the database).
  if (serverUrl && database.name) {
    env.DATABASE_URL = databaseUrl(appServerUrl ?? serverUrl, database.name);
  }
  app = await buildApp({
    db: database.handle.db,
    config: loadConfig(env, null),
    logger: false,
    lifecycle,
    jobs: { db: database.handle, pollingIntervalSeconds: 0.5 },
  });
  await app.ready();
  plain = await createTestApp();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await plain?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('GET /api/health/live and /api/health/ready', () => {
  it('both answer ok on a running node', async () => {
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it.runIf(serverUrl)(
    'ready answers 503 when the database has migrations this build does not know',
    async () => {
      const owner = databaseUrl(serverUrl!, database.name!);
      await withServer(owner, (client) =>
        client.query(
          `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-build', 9999999999999)`,
        ),
      );
      try {
        const res = await get('/api/health/ready');
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ status: 'not_ready', reason: 'migrations_not_current' });
      } finally {
        await withServer(owner, (client) =>
          client.query(
            `delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-build'`,
          ),
        );
      }
      expect((await get('/api/health/ready')).statusCode).toBe(200);
    },
  );
});

describe('GET /metrics', () => {
  it('is not served without METRICS_TOKEN (404)', async () => {
    const res = await plain.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
  });

  it('answers 401 without the token, with another token and with a session token', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(401);
    const { token } = (await plain.readyAdmin()).session;
    const res = await get('/metrics', { authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('portal_');
  });

  it('counts requests by route pattern and status, in the Prometheus format', async () => {
    await get('/api/health/live');
    await get('/api/patients/123'); // no token: 401, counted under the pattern, not the id
    const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(
      /portal_http_requests_total\{method="GET",route="\/api\/health\/live",status="200"\} [1-9]/,
    );
    expect(res.body).toMatch(
      /portal_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/patients\/:id",status="401"\} [0-9]/,
    );
    expect(res.body).not.toContain('/api/patients/123');
    for (const name of [
      'portal_sign_in_failures_total',
      'portal_hl7_messages_total',
      'portal_job_failures_total',
      'portal_import_duration_seconds',
      'portal_report_duration_seconds',
      'portal_db_pool_connections',
      'portal_jobs',
    ]) {
      expect(res.body).toContain(`# TYPE ${name} `);
    }
    // Every app of this process adds its pool (two here, of 4 connections each on PostgreSQL).
    if (serverUrl) expect(res.body).toMatch(/portal_db_pool_connections\{state="max"\} 8/);
  });

  it('counts failed and throttled sign-ins', async () => {
    const before = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    const failures = (body: string) =>
      Number(
        /portal_sign_in_failures_total\{route="\/api\/auth\/login\/admin",reason="credentials"\} (\d+)/.exec(
          body,
        )?.[1] ?? 0,
      );
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      payload: { login: 'nobody-here', password: 'wrong-password-1' },
    });
    expect(res.statusCode).toBe(401);
    const after = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(failures(after.body)).toBe(failures(before.body) + 1);
  });
});

describe('draining (SIGTERM)', () => {
  it('ready answers 503 draining at once, live stays 200, every answer closes its connection', async () => {
    lifecycle.startDraining();
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not_ready', reason: 'draining' });
    expect(ready.headers.connection).toBe('close');
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.headers.connection).toBe('close');
    expect((await get('/api/health')).statusCode).toBe(200);
  });
});
