import { READ_KINDS } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import type { TestApp } from '../test/harness.js';
import { ReadLogWriter } from './read-log.js';

/**
 * The read log's group commit (ADR 052) writes its batches with one named statement (ADR 057):
 * entries recorded at once share INSERTs and each is written as it was recorded.
 */

let t: TestApp;
let userIds: number[] = [];
beforeAll(async () => {
  t = await createTestApp();
  userIds = [(await t.readyAdmin()).session.user.id, (await t.readyIod()).session.user.id];
});
afterAll(() => t?.close());

describe('the read log writer', () => {
  it('writes every entry of concurrent reads as recorded, many in one batch', async () => {
    const writer = new ReadLogWriter(t.db);
    const entries = Array.from({ length: 40 }, (_, i) => ({
      user_id: userIds[i % 2]!,
      address: i % 3 === 0 ? '::ffff:10.0.0.1' : `192.168.1.${i}`,
      kind: READ_KINDS[i % READ_KINDS.length]!,
      patient_ids: Array.from({ length: 1 + ((i * 7) % 30) }, (_, k) => 1_000_000 + i * 100 + k),
    }));
    await Promise.all(entries.map((entry) => writer.record(entry)));
    const result = await t.db.execute(sql`
      select user_id, address, kind, patient_ids, xmin::text as tx from access_log
      where patient_ids[1] >= 1000000 order by id`);
    const rows = (result as { rows: Record<string, unknown>[] }).rows;
    expect(rows.map(({ tx: _tx, ...row }) => row)).toEqual(entries);
    // The first entry is written at once; the others waited for it and shared what came next.
    expect(new Set(rows.map((row) => row.tx)).size).toBeLessThan(entries.length / 2);
  });
});
