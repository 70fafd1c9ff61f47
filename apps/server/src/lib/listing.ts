import { asc, desc, ilike, or, sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';

/** `%term%` with the LIKE wildcards in the user's text escaped. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A case-insensitive "contains" over several columns, or undefined for an empty search. */
export function searchAny(term: string | undefined, columns: (AnyColumn | SQL)[]): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  const pattern = containsPattern(trimmed);
  return or(...columns.map((column) => ilike(column, pattern)));
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
