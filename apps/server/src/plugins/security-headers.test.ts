import fastifyHelmet from '@fastify/helmet';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import type { TestApp } from '../test/harness.js';
import { securityHeaderOptions, securityHeadersPlugin } from './security-headers.js';

/**
 * The security headers computed once (ADR 057) are the ones @fastify/helmet set on every request
 * with the same options, on answers of every kind.
 */

/** Every header but those that differ between any two answers. */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'content-length']);
function securityHeaders(headers: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.has(name)));
}

async function answers(register: (app: FastifyInstance) => Promise<unknown>) {
  const app = Fastify();
  await register(app);
  app.get('/ok', () => ({ ok: true }));
  app.get('/refused', async (_request, reply) => reply.code(401).send({ status: 'error' }));
  app.get('/failed', () => {
    throw new Error('failed');
  });
  await app.ready();
  const result = [];
  for (const url of ['/ok', '/refused', '/failed', '/missing']) {
    const res = await app.inject({ method: 'GET', url });
    result.push({ url, status: res.statusCode, headers: securityHeaders(res.headers) });
  }
  await app.close();
  return result;
}

describe('security headers', () => {
  for (const secure of [false, true]) {
    it(`are helmet's own, on answers, refusals, failures and unknown paths (secure cookies ${secure})`, async () => {
      const options = securityHeaderOptions(secure);
      // The same helmet package, typed once from its CommonJS and once from its ES module types.
      const helmetOptions = options as unknown as FastifyHelmetOptions;
      const before = await answers(async (app) => app.register(fastifyHelmet, helmetOptions));
      const now = await answers(async (app) => app.register(securityHeadersPlugin, { options }));
      expect(now).toEqual(before);
      expect(now[0]!.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(Boolean(now[0]!.headers['strict-transport-security'])).toBe(secure);
    });
  }

  describe('on the portal', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t?.close());

    it('on an API answer and a refusal, with the API docs keeping their own policy', async () => {
      for (const url of ['/api/health/live', '/api/patients']) {
        const res = await t.request('GET', url);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      }
      const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(String(docs.headers['content-security-policy'])).toContain(
        "style-src 'self' 'unsafe-inline'",
      );
    });
  });
});
