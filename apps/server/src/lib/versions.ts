import { and, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.js';
import type { admins, doctors, messages, notes, patients, units } from '../db/schema.js';
import { conflict, notFound } from './errors.js';

/** The records an edit names the version of (ADR 018, migration 0008). */
export type VersionedTable =
  typeof admins | typeof doctors | typeof messages | typeof notes | typeof patients | typeof units;

// The tables share `id` and `version`; Drizzle cannot update a union of tables, so the
// statements below see the common shape (as lib/accounts.ts does).
type CommonShape = PgTable & { id: PgColumn; version: PgColumn };

/**
 * Claims the record for this edit as the first write of the transaction:
 * `version = version + 1 WHERE id = $1 AND version = $2`. The row stays locked until the
 * transaction ends, so a simultaneous edit waits, then finds a newer version and answers 409
 * `conflict` instead of interleaving its writes with ours. A missing record answers 404.
 * Returns the new version.
 */
export async function claimVersion(
  tx: Queryable,
  table: VersionedTable,
  id: number,
  expected: number,
): Promise<number> {
  const record = table as unknown as CommonShape;
  const [claimed] = await tx
    .update(record)
    .set({ version: sql`${record.version} + 1` })
    .where(and(eq(record.id, id), eq(record.version, expected)))
    .returning({ version: record.version });
  if (claimed) return claimed.version as number;
  const [exists] = await tx.select({ id: record.id }).from(record).where(eq(record.id, id));
  throw exists ? conflict('conflict') : notFound();
}
