import { is, SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import * as schema from './schema.js';

/**
 * The migrations in apps/server/drizzle/ are the schema that runs; schema.ts is what the code
 * compiles against. This test migrates a database (PGlite, or PostgreSQL with TEST_DATABASE_URL)
 * and holds every table of schema.ts against it: the tables, their columns with type,
 * nullability and default, the primary keys, the indexes, unique constraints and checks that
 * schema.ts declares, and every unique index the database has (ADR 002, ADR 047).
 *
 * The database is read from pg_catalog, not information_schema: information_schema shows only
 * what the connecting role holds a privilege on, and the PostgreSQL lane connects as the app's
 * restricted role.
 */

/** Tables the migrations make that the code reaches through SQL alone, with why. */
const TABLES_OUTSIDE_SCHEMA_TS: Record<string, string> = {};

/**
 * Columns that are NOT NULL in the database but nullable in schema.ts, with why: a trigger fills
 * them, and a Drizzle insert may leave out only a nullable column or one with a default.
 */
const FILLED_BY_TRIGGER: Record<string, string> = {
  'users.login_skeleton':
    'users_set_login_skeleton (migration 0006) sets it from login before every insert',
};

interface DbColumn {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  default: string | null;
}

interface DbIndex {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  /** Backs a constraint (primary key or UNIQUE) rather than standing alone. */
  constraint: boolean;
}

interface DbConstraint {
  table: string;
  name: string;
  type: 'p' | 'u' | 'c' | 'f';
  columns: string[];
  /** The referenced table of a foreign key. */
  references: string | null;
}

let database: TestDatabase;
let columns: DbColumn[];
let indexes: DbIndex[];
let constraints: DbConstraint[];

beforeAll(async () => {
  database = await openTestDatabase();
  const { handle } = database;
  columns = (
    await handle.executeSql(`
      select c.relname as "table", a.attname as "column",
             format_type(a.atttypid, a.atttypmod) as "type", a.attnotnull as "notNull",
             pg_get_expr(d.adbin, d.adrelid) as "default"
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      order by 1, a.attnum`)
  ).rows as unknown as DbColumn[];
  indexes = (
    await handle.executeSql(`
      select t.relname as "table", i.relname as "name", x.indisunique as "unique",
             x.indisprimary as "primary",
             exists (select 1 from pg_constraint k where k.conindid = x.indexrelid
                     and k.contype in ('p', 'u')) as "constraint"
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public'
      order by 1, 2`)
  ).rows as unknown as DbIndex[];
  constraints = (
    await handle.executeSql(`
      select t.relname as "table", k.conname as "name", k.contype as "type",
             array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, i)
                   join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum
                   order by u.i) as "columns",
             (select r.relname from pg_class r where r.oid = k.confrelid) as "references"
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and k.contype in ('p', 'u', 'c', 'f')
      order by 1, 2`)
  ).rows as unknown as DbConstraint[];
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const tables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table));

/** Drizzle's SQL type in the words of PostgreSQL's format_type(). */
function pgType(column: PgColumn): string {
  const type = column.getSQLType();
  const serial: Record<string, string> = {
    serial: 'integer',
    bigserial: 'bigint',
    smallserial: 'smallint',
  };
  return (
    serial[type] ??
    type
      .replace(/^varchar/, 'character varying')
      .replace(/^char\b/, 'character')
      .replace(
        /^(timestamp|time)(?: ?\((\d+)\))?( with time zone)?$/,
        (_, kind: string, precision?: string, zone?: string) =>
          `${kind}${precision ? `(${precision})` : ''}${zone ?? ' without time zone'}`,
      )
      .replace(/^numeric\((\d+), (\d+)\)/, 'numeric($1,$2)')
  );
}

/** A default as the database prints it, without casts and quotes: `'x'::text` -> `x`. */
function plainDefault(value: string): string {
  return value
    .replace(/::[a-z ]+(\[\])?(\(\d+(,\d+)?\))?/g, '')
    .replace(/^\((.*)\)$/, '$1')
    .replace(/^'(.*)'$/, '$1');
}

/** The default schema.ts declares for the database, as text; null for none. */
function declaredDefault(column: PgColumn): string | null {
  if (['serial', 'bigserial', 'smallserial'].includes(column.getSQLType())) return 'nextval';
  const value: unknown = column.default;
  if (value === undefined) return null;
  if (is(value, SQL)) {
    const text = value.queryChunks
      .map((chunk) =>
        typeof chunk === 'object' && chunk !== null && 'value' in chunk
          ? (chunk.value as string[]).join('')
          : '?',
      )
      .join('');
    return text;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function sameDefault(declared: string | null, actual: string | null): boolean {
  if (declared === null || actual === null) return declared === actual;
  if (declared === 'nextval') return actual.startsWith('nextval(');
  const normal = (text: string) => plainDefault(text).replace(/\s+/g, ' ').toLowerCase();
  return normal(declared) === normal(actual);
}

describe('schema.ts matches the migrated database', () => {
  it('has the same tables', () => {
    const declared = new Set(tables.map((table) => table.name));
    const actual = new Set(columns.map((column) => column.table));
    expect(
      [...declared].filter((name) => !actual.has(name)),
      'in schema.ts only',
    ).toEqual([]);
    expect(
      [...actual].filter((name) => !declared.has(name) && !TABLES_OUTSIDE_SCHEMA_TS[name]),
      'in the database only',
    ).toEqual([]);
  });

  it('has the same columns, types, nullability and defaults', () => {
    const problems: string[] = [];
    for (const table of tables) {
      const actual = new Map(
        columns.filter((column) => column.table === table.name).map((c) => [c.column, c]),
      );
      const declared = new Set(table.columns.map((column) => column.name));
      for (const name of actual.keys()) {
        if (!declared.has(name)) problems.push(`${table.name}.${name}: in the database only`);
      }
      for (const column of table.columns) {
        const where = `${table.name}.${column.name}`;
        const found = actual.get(column.name);
        if (!found) {
          problems.push(`${where}: in schema.ts only`);
          continue;
        }
        if (pgType(column) !== found.type) {
          problems.push(
            `${where}: type ${column.getSQLType()} in schema.ts, ${found.type} in the database`,
          );
        }
        if (column.notNull !== found.notNull && !(found.notNull && FILLED_BY_TRIGGER[where])) {
          problems.push(
            `${where}: ${column.notNull ? 'not null' : 'nullable'} in schema.ts, ${found.notNull ? 'not null' : 'nullable'} in the database`,
          );
        }
        const declaredValue = declaredDefault(column);
        if (!sameDefault(declaredValue, found.default)) {
          problems.push(
            `${where}: default ${declaredValue ?? 'none'} in schema.ts, ${found.default ?? 'none'} in the database`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has the same primary keys', () => {
    const problems: string[] = [];
    for (const table of tables) {
      const declared =
        table.primaryKeys[0]?.columns.map((column) => column.name) ??
        table.columns.filter((column) => column.primary).map((column) => column.name);
      const actual =
        constraints.find((k) => k.table === table.name && k.type === 'p')?.columns ?? [];
      if (declared.join(',') !== actual.join(',')) {
        problems.push(
          `${table.name}: (${declared.join(', ')}) in schema.ts, (${actual.join(', ')}) in the database`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('has the indexes, unique constraints and checks schema.ts declares', () => {
    const problems: string[] = [];
    for (const table of tables) {
      const own = indexes.filter((index) => index.table === table.name);
      for (const index of table.indexes) {
        const name = index.config.name;
        const found = own.find((candidate) => candidate.name === name);
        if (!name || !found)
          problems.push(`${table.name}: index ${name ?? '(unnamed)'} missing in the database`);
        else if (found.unique !== index.config.unique) {
          problems.push(
            `${table.name}: index ${name} is ${index.config.unique ? '' : 'not '}unique in schema.ts only`,
          );
        }
      }
      const uniques = [
        ...table.uniqueConstraints.map((unique) => unique.getName()),
        ...table.columns.filter((column) => column.isUnique).map((column) => column.uniqueName),
      ];
      for (const name of uniques) {
        if (!constraints.some((k) => k.table === table.name && k.type === 'u' && k.name === name)) {
          problems.push(`${table.name}: unique constraint ${name} missing in the database`);
        }
      }
      for (const check of table.checks) {
        if (
          !constraints.some(
            (k) => k.table === table.name && k.type === 'c' && k.name === check.name,
          )
        ) {
          problems.push(`${table.name}: check ${check.name} missing in the database`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares every unique index and unique constraint of the database', () => {
    const declared = new Set(
      tables.flatMap((table) => [
        ...table.indexes.filter((index) => index.config.unique).map((index) => index.config.name),
        ...table.uniqueConstraints.map((unique) => unique.getName()),
        ...table.columns.filter((column) => column.isUnique).map((column) => column.uniqueName),
      ]),
    );
    const undeclared = indexes
      .filter((index) => index.unique && !index.primary && !declared.has(index.name))
      .map((index) => `${index.table}: ${index.name}`);
    expect(undeclared).toEqual([]);
  });

  it('has the foreign keys schema.ts declares, and no others', () => {
    const key = (table: string, from: string[], to: string) =>
      `${table}(${from.join(', ')}) -> ${to}`;
    const declared = tables.flatMap((table) =>
      table.foreignKeys.map((foreignKey) => {
        const reference = foreignKey.reference();
        return key(
          table.name,
          reference.columns.map((column) => column.name),
          getTableConfig(reference.foreignTable).name,
        );
      }),
    );
    const actual = constraints
      .filter((k) => k.type === 'f')
      .map((k) => key(k.table, k.columns, k.references ?? '?'));
    expect(
      declared.filter((name) => !actual.includes(name)),
      'in schema.ts only',
    ).toEqual([]);
    expect(
      actual.filter((name) => !declared.includes(name)),
      'in the database only',
    ).toEqual([]);
  });
});
