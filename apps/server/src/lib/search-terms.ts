import { or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL, SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { searchAny } from './listing.js';

/**
 * Search terms as every large list reads them (ADR 021). A term holding a word of at least three
 * letters or digits is looked for anywhere ("contains") through a pg_trgm index. A shorter term
 * (a lone "ł", "ko", or only punctuation such as `%`) gives the trigram index nothing to narrow
 * by, so it matches the start of the given columns instead, through btree prefix indexes.
 */
export function isTrigramTerm(term: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(term);
}

/**
 * The text a prefix index holds for a name: lower case, without diacritics. The index must be
 * built on exactly this expression (`text_pattern_ops`), see migration 0009.
 */
export function prefixKey(column: AnyColumn | SQL): SQL {
  return sql`lower(portal_unaccent(${column}))`;
}

export interface SearchColumns {
  /** Expressions searched by "contains" (each indexed with gin_trgm_ops over portal_unaccent). */
  contains: SQL[];
  /** Expressions searched by prefix, each indexed with text_pattern_ops (a prefixKey or a code). */
  prefix: SQL[];
}

/**
 * The condition for a search term, or undefined for none. A short term is a range on each
 * prefix index, `[key, key || U+10FFFF)`, compared byte-wise (`~>=~`, `~<~`, the operators of
 * text_pattern_ops): every text starting with the key and nothing else, with no wildcard to
 * escape (`%` is just a character) and no per-row recheck, as `LIKE 'l%'` would need.
 */
export function searchCondition(term: string | undefined, columns: SearchColumns): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  if (isTrigramTerm(trimmed)) return searchAny(trimmed, columns.contains);
  const key = sql`lower(portal_unaccent(${trimmed}))`;
  return or(
    ...columns.prefix.map(
      (column) => sql`(${column} ~>=~ ${key} and ${column} ~<~ (${key} || chr(1114111)))`,
    ),
  );
}

/**
 * A page of ids from a searched list sorted by a name (or another column whose index the
 * matches cluster in): the search's own index finds the matches first and only they are sorted.
 * Walking the name's index instead would skip every earlier name ("kowal" sorted by surname
 * reads every surname before K). `offset 0` keeps PostgreSQL from merging the two levels; the
 * `order` names columns of `matches` (the select's own column names, e.g. `surname asc, id asc`).
 */
export async function matchesPage(
  db: Database,
  matches: SQLWrapper,
  order: string,
  limit: number,
  offset: number,
): Promise<number[]> {
  const result: unknown = await db.execute(
    sql`select matches.id from (${matches} offset 0) matches order by ${sql.raw(order)} limit ${limit} offset ${offset}`,
  );
  // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
  return (result as { rows: { id: number }[] }).rows.map((row) => Number(row.id));
}
