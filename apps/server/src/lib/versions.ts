import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.js';
import type {
  admins,
  doctors,
  globalMessages,
  messages,
  monitors,
  notes,
  patients,
  probeSetKits,
  probeSets,
  probes,
  safetyAlerts,
  settings,
  unitCalendarRules,
  units,
  unmatchedResults,
  visits,
} from '../db/schema.js';
import { AppError, conflict, notFound } from './errors.js';

/** Every table whose records carry `version` (ADR 018): an edit names the version it read. */
export type VersionedTable =
  | typeof admins
  | typeof doctors
  | typeof globalMessages
  | typeof messages
  | typeof monitors
  | typeof notes
  | typeof patients
  | typeof probeSetKits
  | typeof probeSets
  | typeof probes
  | typeof safetyAlerts
  | typeof unitCalendarRules
  | typeof units
  | typeof unmatchedResults
  | typeof visits;

// The tables share `id` and `version`; Drizzle cannot update a union of tables, so the
// statements below see the common shape (as lib/accounts.ts does). Settings are keyed by name.
type CommonShape = PgTable & { id: PgColumn; version: PgColumn };
type KeyedShape = PgTable & { key: PgColumn; version: PgColumn };

export interface ClaimOptions {
  /** Columns written by the claiming statement itself (besides `version`). */
  set?: Record<string, unknown>;
  /**
   * A state the record must be in besides the version (an order still registered, an alert
   * still open, a visit not cancelled). A record not in that state answers 409 with `refused`
   * as its status instead of `conflict`, or 404 without `refused` (as if it did not exist).
   */
  state?: { where: SQL; refused?: string };
}

/**
 * Claims the record for this edit as the first write of the transaction (ADR 018):
 * `version = version + 1 WHERE id = $1 AND version = $2` (and the state, when given). The row
 * stays locked until the transaction ends, so a simultaneous edit waits, then finds a newer
 * version and answers 409 `conflict` instead of interleaving its writes with ours. A missing
 * record answers 404; one no longer in the required state 409 with the state's word (or 404). Returns
 * the new version. The one writer of `version` for every versioned table (ADR 046).
 * `expected` is undefined only for the calls whose contract body has no version (ADR 018): the
 * row is still claimed, locked and checked for its state, and the edit wins.
 */
export async function claimVersion(
  tx: Queryable,
  table: VersionedTable,
  id: number,
  expected: number | undefined,
  options: ClaimOptions = {},
): Promise<number> {
  const record = table as unknown as CommonShape;
  return claim(tx, record, record.id, id, expected, options);
}

/**
 * The same for a setting (keyed by its name, ADR 010). A setting never saved has version 0 and
 * no row: its first save inserts the row, and of two first saves at once the second answers 409.
 */
export async function claimSettingVersion(
  tx: Queryable,
  table: typeof settings,
  name: string,
  expected: number,
  options: ClaimOptions & { set: Record<string, unknown> },
): Promise<number> {
  const record = table as unknown as KeyedShape;
  if (expected === 0) {
    const [inserted] = await tx
      .insert(table)
      .values({ key: name, ...options.set } as typeof settings.$inferInsert)
      .onConflictDoNothing()
      .returning({ version: table.version });
    if (!inserted) throw conflict('conflict');
    return inserted.version;
  }
  // A version for a setting that was never saved cannot be the one read: 409, not 404.
  return claim(tx, record, record.key, name, expected, options).catch((error: unknown) => {
    throw error instanceof AppError && error.statusCode === 404 ? conflict('conflict') : error;
  });
}

/**
 * The next version, for the statements that change records as a side effect of another write
 * (an upsert, a bulk update from a batch) rather than as an edit of one record read at a
 * version: the value moves on so an editor holding the old one gets 409 (ADR 046).
 */
export function nextVersion(version: PgColumn): SQL {
  return sql`${version} + 1`;
}

async function claim(
  tx: Queryable,
  record: PgTable & { version: PgColumn },
  idColumn: PgColumn,
  id: number | string,
  expected: number | undefined,
  { set = {}, state }: ClaimOptions,
): Promise<number> {
  const [claimed] = await tx
    .update(record)
    .set({ ...set, version: nextVersion(record.version) })
    .where(
      and(
        eq(idColumn, id),
        expected === undefined ? undefined : eq(record.version, expected),
        state?.where,
      ),
    )
    .returning({ version: record.version });
  if (claimed) return claimed.version as number;
  const [exists] = await tx
    .select({
      version: record.version,
      inState: state ? sql<boolean>`coalesce(${state.where}, false)` : sql<boolean>`true`,
    })
    .from(record)
    .where(eq(idColumn, id));
  if (!exists) throw notFound();
  if (state && !exists.inState) throw state.refused ? conflict(state.refused) : notFound();
  throw conflict('conflict');
}
