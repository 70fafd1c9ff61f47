import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dropDatabase } from '../db/drop-database.js';
import { ensureInitialAdmin } from '../modules/admins/index.js';
import { backupPostgres, restore } from '../ops/backup.js';
import type { BenchDatabase } from './databases.js';
import { seedStudy } from './seed.js';

/**
 * `BENCH_ONLY=backup` (issue 25, ADR 058): `npm run backup` and `npm run restore` of the
 * 100,000-patient study on PostgreSQL, each within 2 minutes. PGlite's dump is not timed here
 * (the embedded database is the small pilot's).
 */
export async function measureBackup(
  db: BenchDatabase,
  serverUrl: string,
  admin: { login: string; password: string },
  log: (line: string) => void,
): Promise<void> {
  if (db.handle.kind !== 'postgres') {
    log(`  ${db.label}: not measured (PostgreSQL only)`);
    return;
  }
  await ensureInitialAdmin(db.handle.db, admin);
  const adminRow = await db.handle.executeSql('select id from users where login = $1', [
    admin.login,
  ]);
  const seed = await seedStudy(db.handle, Number(adminRow.rows[0]?.id), log);
  log(`  ${seed.patients} patients, ${seed.auditEntries} audit entries seeded`);
  const { rows } = await db.handle.executeSql('select current_database() as name');
  const source = new URL(serverUrl);
  source.pathname = `/${String(rows[0]?.name)}`;
  const restoredName = `portal_bench_restore_${process.pid}`;
  const restored = new URL(serverUrl);
  restored.pathname = `/${restoredName}`;
  const work = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-backup-'));
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    const file = path.join(work, 'bench.tar');
    let started = performance.now();
    await backupPostgres(source.toString(), file);
    const backupMs = performance.now() - started;
    const bytes = (await stat(file)).size;
    log(
      `  backup: ${(backupMs / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(0)} MB ` +
        `(target 120 s), load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    await dropDatabase(server, restoredName);
    await server.query(`create database ${restoredName}`);
    started = performance.now();
    await restore(file, { kind: 'postgres', url: restored.toString() });
    const restoreMs = performance.now() - started;
    log(
      `  restore (with the count and checksum check): ${(restoreMs / 1000).toFixed(1)} s ` +
        `(target 120 s), load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await dropDatabase(server, restoredName).catch(() => undefined);
    await server.end();
    await rm(work, { recursive: true, force: true });
  }
}
