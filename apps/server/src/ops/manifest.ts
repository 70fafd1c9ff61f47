import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { migrationsFolder } from '../db/client.js';

/** Runs one statement and answers its rows: a pg client or PGlite, on one connection. */
export type RowQuery = (text: string) => Promise<Record<string, unknown>[]>;

export interface TableSummary {
  rows: number;
  /**
   * An order-independent digest of the table's content: the sum of the first 60 bits of the MD5
   * of each row's text form, as a decimal string. Equal content gives an equal sum on both
   * databases (the session's output settings are fixed first).
   */
  checksum: string;
}

export interface BackupManifest {
  format: 'study-portal-backup';
  format_version: 1;
  app_version: string;
  created_at: string;
  database: 'pglite' | 'postgres';
  /** The PGlite release that wrote a data-directory dump; another one may not read it. */
  pglite_version: string | null;
  /** The last migration applied (its journal tag) and how many are applied. */
  migration: { tag: string | null; count: number };
  /** What carries the database inside the archive, and its SHA-256. */
  payload: { name: string; sha256: string; bytes: number };
  tables: Record<string, TableSummary>;
}

/** Fixes every setting that changes a row's text form, so that both databases print alike. */
export const STABLE_OUTPUT = [
  "set timezone to 'UTC'",
  "set datestyle to 'ISO, YMD'",
  "set intervalstyle to 'postgres'",
  'set extra_float_digits to 1',
  "set bytea_output to 'hex'",
];

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The portal's tables (schema public), by name. */
export async function portalTables(query: RowQuery): Promise<string[]> {
  const rows = await query(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return rows.map((row) => String(row.name));
}

/** Row count and content checksum of every table of the portal. */
export async function summariseTables(query: RowQuery): Promise<Record<string, TableSummary>> {
  for (const statement of STABLE_OUTPUT) await query(statement);
  const summaries: Record<string, TableSummary> = {};
  for (const table of await portalTables(query)) {
    const [row] = await query(
      `select count(*)::text as rows,
              coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0)::text as checksum
         from ${quoteIdent(table)} t`,
    );
    summaries[table] = {
      rows: Number(row?.rows ?? 0),
      checksum: typeof row?.checksum === 'string' ? row.checksum : '0',
    };
  }
  return summaries;
}

interface Journal {
  entries: { tag: string; when: number }[];
}

/** The migrations applied (drizzle's own table), named by the journal's tags. */
export async function migrationLevel(
  query: RowQuery,
): Promise<{ tag: string | null; count: number }> {
  const [exists] = await query(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as e`,
  );
  if (exists?.e !== true) return { tag: null, count: 0 };
  const [row] = await query(
    'select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations',
  );
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const last = row?.last == null ? null : Number(row.last);
  const tag = journal.entries.find((entry) => entry.when === last)?.tag ?? null;
  return { tag, count: Number(row?.n ?? 0) };
}

export function appVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

export function pgliteVersion(): string {
  // The package's exports leave out package.json; it sits above the resolved entry (dist/).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const file = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Every table whose count or checksum differs between two summaries (both directions). */
export function compareTables(
  expected: Record<string, TableSummary>,
  actual: Record<string, TableSummary>,
): string[] {
  const problems: string[] = [];
  for (const [table, want] of Object.entries(expected)) {
    const got = actual[table];
    if (!got) problems.push(`${table}: missing`);
    else if (got.rows !== want.rows)
      problems.push(`${table}: ${got.rows} rows, expected ${want.rows}`);
    else if (got.checksum !== want.checksum) problems.push(`${table}: content checksum differs`);
  }
  for (const table of Object.keys(actual)) {
    if (!(table in expected)) problems.push(`${table}: not in the backup`);
  }
  return problems;
}
