import type { Queryable } from '../../db/client.js';

/**
 * Open monitor queries in the units (null: all units), for the dashboard's tile (ADR 060).
 *
 * The queries themselves (table `queries`, status `open`) come with the monitors' work, built
 * beside this one; until that lands here this answers 0. The one place to wire: count the
 * queries with status 'open' whose record's patient is active and in the units.
 */
export function countOpenQueries(
  db: Queryable,
  unitIds: readonly number[] | null,
): Promise<number> {
  void db;
  void unitIds;
  return Promise.resolve(0);
}
