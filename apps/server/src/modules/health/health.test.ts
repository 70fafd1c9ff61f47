import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/health', () => {
  it('answers ok without a token', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('unknown paths', () => {
  it('answer 404 not_found', async () => {
    const res = await t.request('GET', '/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'not_found' });
  });
});

describe('GET /api/docs/json', () => {
  it('is an OpenAPI document generated from the shared schemas', async () => {
    const res = await t.request('GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths['/api/units'] ?? {}).sort()).toEqual(['get', 'post']);
    const listParams = doc.paths['/api/units']?.get?.parameters?.map((p) => p.name) ?? [];
    expect(listParams).toEqual(
      expect.arrayContaining(['limit', 'page', 'order_by', 'order_direction', 'search']),
    );
    expect(doc.paths).toHaveProperty(['/api/units/{id}']);
    expect(doc.paths).toHaveProperty(['/api/auth/login/admin']);
    expect(res.body).not.toContain('password_hash');
  });
});
