import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '../db/schema.js';
import { createTestApp } from './harness.js';
import type { TestApp } from './harness.js';

const serverUrl = process.env.TEST_DATABASE_URL;

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const res = await client.query('select 1 from pg_database where datname = $1', [name]);
    return res.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('test harness', () => {
  // Two apps: building them is the slow part, so it happens in the hook (hookTimeout).
  let first: TestApp;
  let second: TestApp;
  let closed = false;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp();
  });
  afterAll(async () => {
    if (!closed) await Promise.all([first?.close(), second?.close()]);
  });

  it('runs on the database the lane asks for', async () => {
    const expectedKind = serverUrl ? 'postgres' : 'pglite';
    expect(first.kind).toBe(expectedKind);
    expect(second.kind).toBe(expectedKind);
    if (serverUrl) {
      expect(first.databaseName).toMatch(/^t_[0-9a-f]{16}$/);
      expect(second.databaseName).not.toBe(first.databaseName);
    } else {
      expect(first.databaseName).toBeNull();
    }
    const health = await first.request('GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('gives each app its own database', async () => {
    await first.unit({ name: 'Tylko w pierwszej' });
    expect(await first.db.select().from(units)).toHaveLength(1);
    expect(await second.db.select().from(units)).toHaveLength(0);
  });

  it('makes a ready doctor who may use the API at once', async () => {
    const unit = await second.unit();
    const ready = await second.readyDoctor(unit.id);
    expect(ready.session.user.changed_password_at).not.toBeNull();
    expect(ready.session.user.unit_id).toBe(unit.id);
    const res = await second.request('GET', '/api/units/all', { token: ready.session.token });
    expect(res.statusCode).toBe(200);
  });

  it('drops its database on close', async () => {
    closed = true;
    await first.close();
    await second.close();
    if (serverUrl) {
      expect(await databaseExists(first.databaseName!)).toBe(false);
      expect(await databaseExists(second.databaseName!)).toBe(false);
    } else {
      // PGlite lives in memory: closing it is all there is to drop.
      await expect(first.db.select().from(units)).rejects.toThrow();
    }
  });
});
