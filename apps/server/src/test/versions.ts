import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import type { RequestOptions, TestApp } from './harness.js';

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

/**
 * A write body with a reason for change (ADR 048), as the edit dialogs send it once a record
 * holds entered clinical data; kept as is when it names one or is not an object.
 */
export function withReason<T>(body: T): T {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'reason' in body) return body;
  return { ...body, reason: { code: 'entry_error' } };
}

/** A PUT whose body gets a reason for change (withReason): edits of entered clinical data. */
export function putWithReason(t: TestApp, url: string, options: RequestOptions = {}) {
  return t.request('PUT', url, { ...options, body: withReason(options.body) });
}
