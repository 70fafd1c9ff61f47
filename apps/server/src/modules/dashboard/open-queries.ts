import type { Queryable } from '../../db/client.js';
import { countOpenQueriesByUnit } from '../queries/index.js';

/**
 * Open monitor queries in the units (null: all units), for the dashboard's tile (ADR 060):
 * queries waiting for the site or for the monitor (`open`, `answered`), as the queries list
 * counts them (ADR 051), by an index on the unit and status.
 */
export async function countOpenQueries(
  db: Queryable,
  unitIds: readonly number[] | null,
): Promise<number> {
  const byUnit = await countOpenQueriesByUnit(db, unitIds ?? undefined);
  let total = 0;
  for (const n of byUnit.values()) total += Number(n);
  return total;
}
