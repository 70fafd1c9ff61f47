import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';

/**
 * A PUT body as a screen that has just read the record sends it: with the record's stored
 * `version` (ADR 018) unless the body names one (a test of staleness) or is not an object (a
 * test of a malformed body). A missing record gets version 1.
 */
export async function withStoredVersion(
  db: Database,
  table: PgTable & { id: PgColumn; version: PgColumn },
  id: number,
  body: unknown,
): Promise<unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'version' in body) return body;
  const [row] = await db.select({ version: table.version }).from(table).where(eq(table.id, id));
  return { ...body, version: (row?.version as number | undefined) ?? 1 };
}
