import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, runMigrations } from '../db/client.js';
import { postgresIsEmpty } from './backup.js';
import { compareTables, portalTables, summariseTables } from './manifest.js';
import type { RowQuery, TableSummary } from './manifest.js';

/**
 * `npm run move-to-postgres -- --to postgres://…` (ADR 058): copies the embedded database of
 * DATA_DIR into an EMPTY PostgreSQL database. The schema comes from the migrations (run on the
 * target as the role of the URL, which then owns it, as DATABASE_MIGRATION_URL's role does);
 * the rows are copied table by table in foreign-key order inside one transaction, with the
 * triggers of the target kept from firing so that the audit trail arrives exactly as it was
 * (no entry re-written, none added), and the sequences are set to the source's values. Then
 * every table's row count and content checksum are compared.
 */

const BATCH_ROWS = 2000;

export interface MoveResult {
  tables: Record<string, TableSummary>;
  rows: number;
  triggers: 'replica' | 'disabled';
  ms: number;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Tables in an order where each comes after the tables it references. */
export function dependencyOrder(tables: string[], references: [string, string][]): string[] {
  const pending = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const [from, to] of references) {
    if (from !== to && pending.has(from) && pending.has(to)) pending.get(from)!.add(to);
  }
  const order: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending.keys()].filter((table) =>
      [...pending.get(table)!].every((dependency) => !pending.has(dependency)),
    );
    if (ready.length === 0) {
      throw new Error(`foreign keys form a cycle among: ${[...pending.keys()].join(', ')}`);
    }
    for (const table of ready.sort()) {
      order.push(table);
      pending.delete(table);
    }
  }
  return order;
}

export async function moveToPostgres(dataDir: string, targetUrl: string): Promise<MoveResult> {
  const started = performance.now();
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${dataDir} holds no embedded database`);
  }
  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  try {
    if (!(await postgresIsEmpty(target))) {
      throw new Error(
        'the target database is not empty: the move goes only into an empty database',
      );
    }
    const source = await openDatabase({ kind: 'pglite', dataDir });
    try {
      // The source at the current schema first, as the portal itself would migrate it at start.
      await runMigrations(source);
      const owner = await openDatabase({ kind: 'postgres', url: targetUrl, max: 1 });
      try {
        await runMigrations(owner);
      } finally {
        await owner.close();
      }
      const sourceQuery: RowQuery = async (text) => (await source.executeSql(text)).rows;
      const targetQuery: RowQuery = async (text) =>
        (await target.query<Record<string, unknown>>(text)).rows;

      const tables = await portalTables(targetQuery);
      const references = (
        await target.query<{ from: string; to: string }>(
          `select c.conrelid::regclass::text as from, c.confrelid::regclass::text as to
             from pg_constraint c join pg_namespace n on n.oid = c.connamespace
            where c.contype = 'f' and n.nspname = 'public'`,
        )
      ).rows.map((row): [string, string] => [
        row.from.replaceAll('"', ''),
        row.to.replaceAll('"', ''),
      ]);
      const order = dependencyOrder(tables, references);

      let rows = 0;
      await target.query('begin');
      let triggers: MoveResult['triggers'] = 'replica';
      try {
        await target.query('savepoint replica');
        // Only a superuser (or a role granted SET on it) may; the owner of the tables may
        // instead disable their triggers inside this transaction, which nobody else sees.
        await target.query('set local session_replication_role = replica');
      } catch {
        await target.query('rollback to savepoint replica');
        triggers = 'disabled';
        for (const table of order) {
          await target.query(`alter table ${quoteIdent(table)} disable trigger user`);
        }
      }
      // The migrations seed the study configuration (lookups); the source's rows replace them.
      await target.query(`truncate table ${order.map(quoteIdent).join(', ')}`);
      for (const table of order) rows += await copyTable(source, target, table);
      await copySequences(source, target);
      if (triggers === 'disabled') {
        for (const table of order) {
          await target.query(`alter table ${quoteIdent(table)} enable trigger user`);
        }
      }
      await target.query('commit');

      const [expected, actual] = [
        await summariseTables(sourceQuery),
        await summariseTables(targetQuery),
      ];
      const problems = compareTables(expected, actual);
      if (problems.length > 0) {
        throw new Error(`the copy differs from the source:\n  ${problems.join('\n  ')}`);
      }
      return { tables: actual, rows, triggers, ms: Math.round(performance.now() - started) };
    } finally {
      await source.close();
    }
  } catch (error) {
    await target.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await target.end().catch(() => undefined);
  }
}

/** Copies a table in batches of JSON rows, ordered by its primary key when it has one. */
async function copyTable(
  source: Awaited<ReturnType<typeof openDatabase>>,
  target: pg.Client,
  table: string,
): Promise<number> {
  const name = quoteIdent(table);
  const { rows: columnRows } = await target.query<{ name: string }>(
    `select column_name as name from information_schema.columns
      where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'
      order by ordinal_position`,
    [table],
  );
  const columns = columnRows.map((row) => quoteIdent(row.name)).join(', ');
  const { rows: keyRows } = await target.query<{ name: string }>(
    `select a.attname as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary`,
    [name],
  );
  const orderBy =
    keyRows.length > 0 ? keyRows.map((row) => quoteIdent(row.name)).join(', ') : 'ctid';
  let copied = 0;
  for (let offset = 0; ; offset += BATCH_ROWS) {
    const { rows } = await source.executeSql(
      `select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb)::text as batch
         from (select * from ${name} order by ${orderBy} limit ${BATCH_ROWS} offset ${offset}) t`,
      [],
    );
    const batch = typeof rows[0]?.batch === 'string' ? rows[0].batch : '[]';
    if (batch === '[]') break;
    const result = await target.query(
      `insert into ${name} (${columns}) overriding system value
       select ${columns} from jsonb_populate_recordset(null::${name}, $1::jsonb)`,
      [batch],
    );
    copied += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < BATCH_ROWS) break;
  }
  return copied;
}

/** Every sequence of the schema at the source's value, so new rows continue after the copied. */
async function copySequences(
  source: Awaited<ReturnType<typeof openDatabase>>,
  target: pg.Client,
): Promise<void> {
  const { rows } = await source.executeSql(
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
       from pg_sequences where schemaname = 'public'`,
    [],
  );
  for (const row of rows) {
    if (row.value == null) {
      await target.query('select setval($1::regclass, 1, false)', [row.name]);
    } else {
      await target.query('select setval($1::regclass, $2::bigint, true)', [row.name, row.value]);
    }
  }
}
