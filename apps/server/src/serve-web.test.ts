import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openTestDatabase } from './test/harness.js';
import type { TestDatabase } from './test/harness.js';

let webRoot: string;
let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'portal-web-'));
  await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Portal</title>');
  await writeFile(path.join(webRoot, 'app.js'), 'console.log(1)');
  await writeFile(path.join(webRoot, 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
  database = await openTestDatabase();
  app = await buildApp({
    db: database.handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }, webRoot),
    logger: false,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each(['/', '/login', '/units/calendar/3', '/patients/card/12'])(
    'answers the deep link %s with the app',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>Portal</title>');
    },
  );

  it('serves assets and answers unknown API paths and files with 404', async () => {
    expect((await app.inject({ method: 'GET', url: '/app.js' })).statusCode).toBe(200);
    const api = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ status: 'not_found' });
    expect((await app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
  });

  it('never serves a source map, even when a build left one', async () => {
    for (const url of ['/app.js.map', '/APP.JS.MAP', '/app.js.map?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret.ts');
    }
  });

  it('sends security headers with a content security policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/login' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a JSON body over 1 MiB', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login: 'x'.repeat(1_100_000), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
  });
});
