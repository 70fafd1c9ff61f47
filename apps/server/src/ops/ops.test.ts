import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabase } from '../db/drop-database.js';
import { databaseUrl, withServer } from '../test/server-database.js';
import { backupPglite, backupPostgres, openPglite, restore } from './backup.js';
import { compareTables, summariseTables } from './manifest.js';
import type { TableSummary } from './manifest.js';
import { dependencyOrder, moveToPostgres } from './move-to-postgres.js';

/**
 * Backup, restore and the move to PostgreSQL on the demo study (ADR 058): every table's row count
 * and content checksum after the trip is compared with the source, computed independently of the
 * manifest the backup wrote.
 */
const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL;
const MINUTE = 60_000;

let work: string;
let demoDir: string;
let demoTables: Record<string, TableSummary>;

function environmentWithout(name: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env[name];
  return env;
}

function runDemo(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(serverRoot, 'src/demo/main.ts')],
      {
        cwd: serverRoot,
        env: { ...environmentWithout('DATABASE_URL'), DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`demo failed (${code}): ${stderr}`)),
    );
  });
}

async function summariseDataDir(dataDir: string) {
  const client = await openPglite(dataDir);
  try {
    return await summariseTables(
      async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    );
  } finally {
    await client.close();
  }
}

async function summariseUrl(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await summariseTables(
      async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    );
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'portal-ops-test-'));
  demoDir = path.join(work, 'demo');
  await runDemo(demoDir);
  demoTables = await summariseDataDir(demoDir);
}, 4 * MINUTE);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('content checksums', () => {
  it('tell a changed row, a missing table and an extra one apart', () => {
    const base = { a: { rows: 2, checksum: '10' }, b: { rows: 1, checksum: '5' } };
    expect(compareTables(base, base)).toEqual([]);
    expect(compareTables(base, { ...base, a: { rows: 2, checksum: '11' } })).toEqual([
      'a: content checksum differs',
    ]);
    expect(compareTables(base, { a: base.a })).toEqual(['b: missing']);
    expect(compareTables(base, { ...base, c: { rows: 0, checksum: '0' } })).toEqual([
      'c: not in the backup',
    ]);
  });

  it('orders tables after the tables they reference and names a cycle', () => {
    expect(
      dependencyOrder(
        ['c', 'b', 'a'],
        [
          ['c', 'b'],
          ['b', 'a'],
          ['a', 'a'],
        ],
      ),
    ).toEqual(['a', 'b', 'c']);
    expect(() =>
      dependencyOrder(
        ['a', 'b'],
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
      ),
    ).toThrow(/cycle/);
  });
});

describe('the embedded database', () => {
  it(
    'is backed up and restored into an empty place with every table as it was',
    async () => {
      expect(demoTables.patients!.rows).toBeGreaterThan(10);
      expect(demoTables.audit_entries!.rows).toBeGreaterThan(100);
      expect(demoTables.files!.rows).toBeGreaterThan(0);
      const file = path.join(work, 'embedded.tar');
      const backup = await backupPglite(demoDir, file);
      expect(existsSync(`${file}.sha256`)).toBe(true);
      expect(backup.manifest.database).toBe('pglite');
      expect(backup.manifest.migration.tag).toMatch(/^\d{4}_/);
      expect(backup.manifest.tables).toEqual(demoTables);

      const restored = path.join(work, 'restored');
      await restore(file, { kind: 'pglite', dataDir: restored });
      expect(compareTables(demoTables, await summariseDataDir(restored))).toEqual([]);

      // Not into a place that holds something, and never over a file.
      await expect(restore(file, { kind: 'pglite', dataDir: restored })).rejects.toThrow(
        /not empty/,
      );
      await expect(backupPglite(demoDir, file)).rejects.toThrow(/exists/);

      // A damaged archive is refused before anything is written.
      const handle = await open(file, 'r+');
      await handle.write(Buffer.from('X'), 0, 1, 4096);
      await handle.close();
      const other = path.join(work, 'not-written');
      await expect(restore(file, { kind: 'pglite', dataDir: other })).rejects.toThrow(/damaged/);
      expect(existsSync(other)).toBe(false);
    },
    4 * MINUTE,
  );
});

describe.skipIf(!serverUrl)('PostgreSQL', () => {
  const names = [`portal_ops_move_${process.pid}`, `portal_ops_restore_${process.pid}`];
  // The block is collected even when skipped (no server): no URL is built then.
  const [moved, restoredDb] = names.map((name) =>
    serverUrl ? databaseUrl(serverUrl, name) : '',
  ) as [string, string];

  beforeAll(async () => {
    await withServer(serverUrl!, async (client) => {
      for (const name of names) {
        await dropDatabase(client, name);
        await client.query(`create database "${name}"`);
      }
    });
  });

  afterAll(async () => {
    await withServer(serverUrl!, async (client) => {
      for (const name of names) await dropDatabase(client, name);
    });
  });

  it(
    'takes the embedded demo study whole, audit entries as they were, within 30 s',
    async () => {
      const result = await moveToPostgres(demoDir, moved);
      expect(result.ms).toBeLessThan(30_000);
      expect(compareTables(demoTables, await summariseUrl(moved))).toEqual([]);

      const client = new pg.Client({ connectionString: moved });
      await client.connect();
      try {
        // The copy wrote no audit entry of its own, and new rows continue after the copied ids.
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from audit_entries',
        );
        expect(rows[0]!.n).toBe(demoTables.audit_entries!.rows);
        const next = await client.query<{ next: number; max: number }>(
          `select nextval(pg_get_serial_sequence('patients', 'id'))::int as next,
                (select max(id) from patients)::int as max`,
        );
        expect(next.rows[0]!.next).toBeGreaterThan(next.rows[0]!.max);
        // The triggers are on again.
        const triggers = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_trigger where not tgisinternal and tgenabled = 'D'`,
        );
        expect(triggers.rows[0]!.n).toBe(0);
      } finally {
        await client.end();
      }
      await expect(moveToPostgres(demoDir, moved)).rejects.toThrow(/not empty/);
    },
    2 * MINUTE,
  );

  it(
    'backs up with pg_dump and restores into an empty database only',
    async () => {
      const file = path.join(work, 'postgres.tar');
      const backup = await backupPostgres(moved, file);
      expect(backup.manifest.database).toBe('postgres');
      expect(backup.manifest.tables).toEqual(await summariseUrl(moved));

      await restore(file, { kind: 'postgres', url: restoredDb });
      expect(compareTables(demoTables, await summariseUrl(restoredDb))).toEqual([]);
      await expect(restore(file, { kind: 'postgres', url: restoredDb })).rejects.toThrow(
        /not empty/,
      );
      // A backup of one kind is not restored into the other.
      await expect(
        restore(path.join(work, 'embedded.tar'), { kind: 'postgres', url: restoredDb }),
      ).rejects.toThrow();
    },
    2 * MINUTE,
  );
});
