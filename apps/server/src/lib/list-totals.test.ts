import { COUNT_CAP } from '@portal/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '../db/schema.js';
import { openTestDatabase, unique } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import {
  TOTAL_TTL_MS,
  estimatedRows,
  forgetListTotals,
  inOrderOf,
  listTotal,
  rememberListTotals,
  totalKey,
} from './list-totals.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function addUnits(city: string, count: number) {
  await database.handle.db.execute(sql`
    insert into units (name, street, building_nr, postcode, city)
    select 'Poradnia ' || g, 'ul. Długa', g::text, '00-001', ${city}
    from generate_series(1, ${count}) g`);
}

/**
 * ANALYZE as the table's owner: on PostgreSQL the tests' handle is the app role, which may not
 * (autovacuum does it in production).
 */
async function analyzeUnits() {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl || !database.name) {
    await database.handle.db.execute(sql`analyze units`);
    return;
  }
  const url = new URL(ownerUrl);
  url.pathname = `/${database.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query('analyze units');
  } finally {
    await client.end();
  }
}

function plan(city: string, unfiltered = false) {
  const db = database.handle.db;
  return {
    key: totalKey('units-test', { city }),
    rows: () =>
      db
        .select({ id: units.id })
        .from(units)
        .where(sql`${units.city} = ${city}`),
    ...(unfiltered ? { unfilteredTable: 'units' } : {}),
  };
}

describe('listTotal', () => {
  it('counts a filter exactly up to the cap, then answers "at least" the cap', async () => {
    const db = database.handle.db;
    const few = unique('few');
    await addUnits(few, 3);
    expect(await listTotal(db, plan(few))).toEqual({ total: 3, total_kind: 'exact' });

    const many = unique('many');
    await addUnits(many, COUNT_CAP + 5);
    expect(await listTotal(db, plan(many))).toEqual({ total: COUNT_CAP, total_kind: 'at_least' });
  });

  it('counts an unfiltered small table exactly, past the cap', async () => {
    const db = database.handle.db;
    const city = unique('all');
    await addUnits(city, COUNT_CAP + 2);
    expect(await listTotal(db, plan(city, true))).toEqual({
      total: COUNT_CAP + 2,
      total_kind: 'exact',
    });
  });

  it('remembers a total per key until forgotten or expired', async () => {
    const db = database.handle.db;
    const city = unique('cached');
    await addUnits(city, 2);
    const now = Date.now();
    expect((await listTotal(db, plan(city), now)).total).toBe(2);

    await addUnits(city, 1);
    // Paging through the same filter does not count again…
    expect((await listTotal(db, plan(city), now + 1000)).total).toBe(2);
    // …but a change through this process, or the time limit, does.
    forgetListTotals(db);
    expect((await listTotal(db, plan(city), now + 2000)).total).toBe(3);
    await addUnits(city, 1);
    expect((await listTotal(db, plan(city), now + 2000 + TOTAL_TTL_MS + 1)).total).toBe(4);
  });

  it('remembers nothing while this node cannot hear the other nodes (ADR 056)', async () => {
    const db = database.handle.db;
    const city = unique('deaf');
    await addUnits(city, 1);
    const now = Date.now();
    rememberListTotals(db, false);
    try {
      expect((await listTotal(db, plan(city), now)).total).toBe(1);
      await addUnits(city, 1);
      expect((await listTotal(db, plan(city), now + 1)).total).toBe(2);
    } finally {
      rememberListTotals(db, true);
    }
    await addUnits(city, 1);
    expect((await listTotal(db, plan(city), now + 2)).total).toBe(3);
    await addUnits(city, 1);
    expect((await listTotal(db, plan(city), now + 3)).total).toBe(3);
  });

  it('shares one count between simultaneous first requests', async () => {
    const db = database.handle.db;
    const city = unique('shared');
    await addUnits(city, 4);
    const now = Date.now();
    const first = listTotal(db, plan(city), now);
    expect(listTotal(db, plan(city), now)).toBe(first);
    expect((await first).total).toBe(4);
  });
});

describe('estimatedRows', () => {
  it('follows the statistics of an analysed table and knows nothing of an unknown one', async () => {
    const db = database.handle.db;
    await addUnits(unique('stats'), 2000);
    await analyzeUnits();
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(units);
    const estimate = await estimatedRows(db, 'units');
    expect(estimate).not.toBeNull();
    expect(Math.abs(estimate! - row!.n) / row!.n).toBeLessThan(0.2);
    expect(await estimatedRows(db, 'no_such_table')).toBeNull();
  });
});

describe('totalKey', () => {
  it('ignores the order of filters and undefined ones', () => {
    expect(totalKey('p', { a: 1, b: [2, 3], c: undefined })).toBe(
      totalKey('p', { b: [2, 3], a: 1 }),
    );
    expect(totalKey('p', { a: 1 })).not.toBe(totalKey('q', { a: 1 }));
  });
});

describe('inOrderOf', () => {
  it('puts loaded rows back in the order of the page and skips vanished ones', () => {
    const rows = [{ id: 3 }, { id: 1 }, { id: 2 }];
    expect(inOrderOf([2, 9, 3, 1], rows, (r) => r.id)).toEqual([{ id: 2 }, { id: 3 }, { id: 1 }]);
  });
});
