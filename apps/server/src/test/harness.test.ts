import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { units } from '../db/schema.js';
import { createTestApp } from './harness.js';

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
  it('runs on the database the lane asks for, isolates each app and drops its database', async () => {
    const first = await createTestApp();
    const second = await createTestApp();
    try {
      const expectedKind = serverUrl ? 'postgres' : 'pglite';
      expect(first.kind).toBe(expectedKind);
      expect(second.kind).toBe(expectedKind);
      if (serverUrl) {
        expect(first.databaseName).toMatch(/^t_[0-9a-f]{16}$/);
        expect(second.databaseName).not.toBe(first.databaseName);
      } else {
        expect(first.databaseName).toBeNull();
      }

      await first.unit({ name: 'Tylko w pierwszej' });
      expect(await first.db.select().from(units)).toHaveLength(1);
      expect(await second.db.select().from(units)).toHaveLength(0);

      const health = await first.request('GET', '/api/health');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });

      // A ready doctor has chosen a password and may use the API at once.
      const unit = await second.unit();
      const ready = await second.readyDoctor(unit.id);
      expect(ready.session.user.changed_password_at).not.toBeNull();
      expect(ready.session.user.unit_id).toBe(unit.id);
      const res = await second.request('GET', '/api/units/all', { token: ready.session.token });
      expect(res.statusCode).toBe(200);
    } finally {
      await first.close();
      await second.close();
    }
    if (serverUrl) {
      expect(await databaseExists(first.databaseName!)).toBe(false);
      expect(await databaseExists(second.databaseName!)).toBe(false);
    }
  });
});
