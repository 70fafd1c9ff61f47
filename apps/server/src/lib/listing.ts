import { asc, desc, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';

/** `%term%` with the LIKE wildcards in the user's text escaped. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Text as the search compares it: without Polish (or other) diacritics, through the IMMUTABLE
 * wrapper of migration 0004 so that trigram indexes on the same expression can serve it.
 */
export function unaccented(text: AnyColumn | SQL): SQL {
  return sql`portal_unaccent(${text})`;
}

/**
 * "Contains" as people type, over several columns: without case and diacritics ("lodz" finds
 * "Łódź"), or undefined for an empty search.
 */
export function searchAny(term: string | undefined, columns: (AnyColumn | SQL)[]): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  const pattern = unaccented(sql`${containsPattern(trimmed)}`);
  return or(...columns.map((column) => sql`${unaccented(column)} ilike ${pattern}`));
}

/**
 * ORDER BY for an allow-listed sort key (already checked by the shared schema), with the id as a
 * tie-breaker so that paging is stable.
 */
export function orderBy<K extends string>(
  columns: Record<K, AnyColumn | SQL>,
  key: K,
  direction: 'asc' | 'desc',
  id: AnyColumn,
): SQL[] {
  const dir = direction === 'asc' ? asc : desc;
  const primary = dir(columns[key]);
  return columns[key] === id ? [primary] : [primary, dir(id)];
}

export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}

export const countAll = sql<number>`count(*)::int`;
