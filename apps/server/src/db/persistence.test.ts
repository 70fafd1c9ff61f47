import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { units } from '../db/schema.js';
import { openDatabase, runMigrations } from './client.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('embedded database on disk', () => {
  // Opens PGlite twice on disk inside the test (not in a hook): on a busy two-core machine that
  // alone can pass the default 30 s.
  const timeout = 120_000;

  it(
    'keeps data across a close and reopen, and migrating again changes nothing',
    { timeout },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-pglite-'));
      dirs.push(dataDir);
      const first = await openDatabase({ kind: 'pglite', dataDir });
      await runMigrations(first);
      await first.db.insert(units).values({
        name: 'Poradnia Żółta',
        street: 'Łąkowa',
        building_nr: '1',
        postcode: '00-001',
        city: 'Łódź',
      });
      await first.close();

      const second = await openDatabase({ kind: 'pglite', dataDir });
      await runMigrations(second);
      const rows = await second.db.select({ name: units.name }).from(units);
      expect(rows).toEqual([{ name: 'Poradnia Żółta' }]);
      await second.close();
      // Closing twice (a second signal during shutdown) is harmless.
      await second.close();
    },
  );
});
