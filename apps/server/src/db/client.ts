import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** Both drivers share this type, so services never know which database they talk to. */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Flushes and closes; for PGlite a CHECKPOINT first, so the directory is left consistent. */
  close(): Promise<void>;
  /**
   * PGlite only: the whole data directory as an uncompressed tarball, which `loadDataDir` opens
   * again (the tests' migrated template).
   */
  dumpDataDir?: () => Promise<Blob>;
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export type DatabaseOptions =
  | {
      kind: 'pglite';
      dataDir: string | null;
      /**
       * Starts from a copy of this dumped data directory instead of an empty cluster (tests: a
       * migrated template costs a fraction of a fresh initdb).
       */
      loadDataDir?: Blob;
    }
  | { kind: 'postgres'; url: string; max?: number };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'pglite') {
    // A null directory keeps the database in memory (tests).
    const client = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    await client.waitReady;
    const db = drizzlePglite(client, { schema });
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      async close() {
        if (client.closed) return;
        await client.query('CHECKPOINT');
        await client.close();
      },
      dumpDataDir: () => client.dumpDataDir('none'),
    };
  }
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async close() {
      await pool.end();
    },
  };
}

/** Runs the SQL migrations in drizzle/ (the same files on both drivers). */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as Parameters<typeof migratePglite>[0], {
      migrationsFolder,
    });
  } else {
    await migratePg(handle.db as unknown as Parameters<typeof migratePg>[0], { migrationsFolder });
  }
}

/**
 * Opens a transaction whose first statement names the acting user, transaction-local, so that
 * the audit triggers can record who made each change.
 */
export async function inTransaction<T>(
  db: Database,
  actorUserId: number | null,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    if (actorUserId !== null) {
      await tx.execute(sql`select set_config('app.user_id', ${String(actorUserId)}, true)`);
    }
    return work(tx);
  });
}
