import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { signatures } from '../db/schema.js';
import { lockRecord } from '../modules/records/index.js';
import { loadDemoAdmin } from './actor.js';

/**
 * Issue 23 item 3 (ADR 048): one locked record, a signed visit (or else a signed sample), locked
 * by the coordinator with a reason through the records service. Runs after the signatures
 * (demo/monitoring.ts). Answers what it locked, or null when nothing is signed.
 */
export async function addDemoRecordLock(
  db: Database,
  adminUserId: number,
): Promise<{ record_type: 'visit' | 'probe'; record_id: number } | null> {
  const admin = await loadDemoAdmin(db, adminUserId);
  if (!admin) return null;
  const signed = await db
    .select({ type: signatures.record_type, id: signatures.record_id })
    .from(signatures)
    .where(eq(signatures.status, 'valid'))
    .orderBy(asc(signatures.record_type), asc(signatures.id));
  // A visit first ('probe' sorts before 'visit'), then a sample.
  const record = signed.find((row) => row.type === 'visit') ?? signed[0];
  if (!record) return null;
  await lockRecord(db, admin, record.type, record.id, {
    code: 'other',
    text: 'Karta zweryfikowana przez monitora i zamknięta',
  });
  return { record_type: record.type, record_id: record.id };
}
