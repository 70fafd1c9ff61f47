/**
 * Vitest global setup of the server project: migrates one database per run, so that each test
 * file starts from a copy instead of paying for an empty cluster and the migrations itself.
 *
 * - PGlite: the migrated data directory is dumped to a tarball; `openTestDatabase` opens each
 *   database with `loadDataDir` from it (a fresh initdb costs several seconds, a load under one).
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database that every test database is created
 *   from with `CREATE DATABASE … TEMPLATE`. Nothing connects to it after this setup, which is
 *   what PostgreSQL requires of a template; copies may be made at once by parallel files.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, runMigrations } from '../db/client.js';
import { migrateDatabase } from '../db/roles.js';
import { databaseUrl, withServer } from './server-database.js';
import { dropDatabase } from '../db/drop-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite data directory's tarball; empty on the PostgreSQL lane. */
    pgliteTemplate: string;
    /** Name of the migrated template database on the PostgreSQL lane; empty on PGlite. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `tpl_${randomBytes(8).toString('hex')}`;
    await withServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const appUrl = process.env.TEST_DATABASE_APP_URL;
    const handle = await openDatabase({
      kind: 'postgres',
      url: appUrl ? databaseUrl(appUrl, name) : url.toString(),
      max: 1,
    });
    try {
      if (appUrl) {
        // As main.ts with DATABASE_MIGRATION_URL: the owner migrates and grants the app role;
        // the grants are copied with the template. A role that could still alter the audit
        // trail would make this lane prove nothing.
        const warnings = await migrateDatabase(handle, url.toString());
        if (warnings.length > 0) throw new Error(`TEST_DATABASE_APP_URL: ${warnings.join('; ')}`);
      } else {
        await runMigrations(handle);
      }
    } finally {
      await handle.close();
    }
    project.provide('pgliteTemplate', '');
    project.provide('postgresTemplate', name);
    return () =>
      withServer(serverUrl, async (client) => {
        await dropDatabase(client, name);
      });
  }

  const dir = await mkdtemp(path.join(tmpdir(), 'portal-test-template-'));
  const file = path.join(dir, 'migrated.tar');
  try {
    const handle = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await runMigrations(handle);
      const dump = await handle.dumpDataDir!();
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return () => rm(dir, { recursive: true, force: true });
}
