import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { fillPlaceholders, sql } from 'drizzle-orm';
import type { ExtractTablesWithRelations, Logger, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { AuditSource } from '@portal/shared';
import { unpackImage } from './pglite-image.js';
import type { ImageOutcome, PgliteImage } from './pglite-image.js';
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

/**
 * Raw SQL on the same connection(s) as `db`, for libraries that bring their own SQL (the job
 * queue). Text without values may hold several statements.
 */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle extends SqlExecutor {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Flushes and closes; for PGlite a CHECKPOINT first, so the directory is left consistent. */
  close(): Promise<void>;
  /**
   * PGlite only: the whole data directory as an uncompressed tarball, which `loadDataDir` opens
   * again (the tests' migrated template).
   */
  dumpDataDir?: () => Promise<Blob>;
  /** PGlite on disk with an `image` option: whether the directory was made from it, or why not. */
  image?: ImageOutcome;
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export type DatabaseOptions = (
  | {
      kind: 'pglite';
      dataDir: string | null;
      /**
       * Starts from a copy of this dumped data directory instead of an empty cluster (tests: a
       * migrated template costs a fraction of a fresh initdb).
       */
      loadDataDir?: Blob;
      /**
       * A migrated data directory made at build time (pglite-image.ts): unpacked into `dataDir`
       * first when that directory is missing or empty and the image fits the migrations.
       */
      image?: PgliteImage;
    }
  | { kind: 'postgres'; url: string; max?: number }
) & {
  /** Sees every statement Drizzle sends, with its parameters (the bench replays them). */
  queryLogger?: Logger;
};

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'pglite') {
    // A null directory keeps the database in memory (tests); loadDataDir starts from a dump of a
    // migrated database. The search migration creates these extensions; PGlite can only do so
    // when they are loaded with the client.
    const image =
      options.dataDir && options.image
        ? await unpackImage(options.dataDir, options.image, migrationsFolder)
        : undefined;
    const client = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      extensions: { unaccent, pg_trgm },
    });
    await client.waitReady;
    const db = drizzlePglite(client, { schema, logger: options.queryLogger ?? false });
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      async executeSql(text, values) {
        if (values && values.length > 0) {
          const result = await client.query<Record<string, unknown>>(text, values);
          return { rows: result.rows };
        }
        // The extended protocol behind query() takes one statement; exec() takes a script.
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      async close() {
        if (client.closed) return;
        await client.query('CHECKPOINT');
        await client.close();
      },
      dumpDataDir: () => client.dumpDataDir('none'),
      ...(image ? { image } : {}),
    };
  }
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema, logger: options.queryLogger ?? false });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async executeSql(text, values) {
      // Without values pg uses the simple protocol, which runs a multi-statement script.
      const result = await pool.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    },
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

/**
 * Names what writes the transaction's changes when no person does, or how a person does
 * (the laboratory, an import, a manual match): transaction-local like the actor, copied by the
 * audit triggers into every entry of the transaction (migration 0024, ADR 042). Call it inside
 * inTransaction's work, before the writes.
 */
export async function markAuditSource(tx: Transaction, source: AuditSource): Promise<void> {
  await tx.execute(sql`select set_config('app.source', ${source}, true)`);
}

/**
 * One writing statement that is its own transaction and names the acting user itself: a CTE
 * `audit_actor` sets app.user_id (transaction-local, so it ends with the statement) and the
 * statement MUST read from `audit_actor` (an unread CTE is never run). The audit triggers fire
 * at the end of the statement and see the actor exactly as under inTransaction. For hot writes
 * of one statement (booking, ADR 027): it saves the BEGIN, set_config and COMMIT round trips.
 * `actorUserId` may be a `sql.placeholder` for a preparedStatement.
 */
export function asActor(actorUserId: unknown, statement: SQL): SQL {
  return sql`with audit_actor as (select set_config('app.user_id', ${actorUserId}::text, true)) ${statement}`;
}

/**
 * A statement compiled once from drizzle's `sql` with `sql.placeholder`s and run by name: on
 * PostgreSQL node-postgres prepares it once per connection, so neither drizzle's build nor
 * PostgreSQL's planning is paid again; PGlite runs the same text and values. For the hottest
 * statements only (booking, ADR 027); runs on the database, never inside a transaction.
 */
export function preparedStatement(name: string, build: (db: Database) => SQL) {
  // Compiled on first use: building needs a database's query builder, not its connection.
  let query: { sql: string; params: unknown[] } | null = null;
  return async (db: Database, values: Record<string, unknown>) => {
    query ??= new PgDialect().sqlToQuery(build(db));
    const params = fillPlaceholders(query.params, values);
    // drizzle keeps the driver's client on $client; the Database type does not name it.
    const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
    const result =
      client instanceof PGlite
        ? await client.query<Record<string, unknown>>(query.sql, params)
        : await client.query<Record<string, unknown>>({ name, text: query.sql, values: params });
    return result.rows;
  };
}

const preparedQueries = new WeakMap<Database, Map<string, unknown>>();

/**
 * A drizzle prepared query (`.prepare(name)` with `sql.placeholder`s), built once per database
 * and reused: the query is not rebuilt on every request and PostgreSQL plans it once per
 * connection. For the statements every request or every screen runs (the session check, the
 * slots of a day).
 */
export function preparedOnce<T>(db: Database, name: string, build: () => T): T {
  let queries = preparedQueries.get(db);
  if (!queries) {
    queries = new Map();
    preparedQueries.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build();
    queries.set(name, query);
  }
  return query;
}

/**
 * Names the reason for change of the transaction's writes (ADR 048): transaction-local like the
 * actor, copied by the database into every audit entry of the transaction (migration 0027).
 * Call it inside inTransaction's work, before the writes.
 */
export async function markAuditReason(
  tx: Transaction,
  reason: { code: string; text: string | null },
): Promise<void> {
  await tx.execute(
    sql`select set_config('app.reason_code', ${reason.code}, true), set_config('app.reason_text', ${reason.text ?? ''}, true)`,
  );
}

/**
 * Raw SQL with `$n` parameters on the database behind `db` (its driver's client), for code that
 * receives only `db` but runs hand-written SQL (the audit chain's verifier).
 */
export function executorOf(db: Database): SqlExecutor {
  // drizzle keeps the driver's client on $client; the Database type does not name it.
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  return {
    async executeSql(text, values) {
      const result =
        client instanceof PGlite
          ? await client.query<Record<string, unknown>>(text, values ?? [])
          : await client.query<Record<string, unknown>>(text, values ?? []);
      return { rows: result.rows };
    },
  };
}
