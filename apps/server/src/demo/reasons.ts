import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { inTransaction, markAuditReason } from '../db/client.js';
import type { Database } from '../db/client.js';
import { patients, visits } from '../db/schema.js';

/**
 * Changed records with reasons (issue 23, ADR 048): a qualified patient's weight corrected from
 * the source documents, and a recorded visit's QT re-entered after a typing error, each written
 * as a doctor's edit would be, so the audit trail shows reasons beside the first entries.
 */
export async function addDemoReasons(db: Database, actorUserId: number): Promise<number> {
  let changed = 0;
  const [patient] = await db
    .select({ id: patients.id, weight: patients.weight })
    .from(patients)
    .where(eq(patients.is_classified, true))
    .orderBy(asc(patients.id))
    .limit(1);
  if (patient) {
    await inTransaction(db, actorUserId, async (tx) => {
      await markAuditReason(tx, { code: 'source_correction', text: 'Karta pacjenta, wizyta 1' });
      await tx
        .update(patients)
        .set({ weight: Number(patient.weight ?? 70) + 1.5 })
        .where(eq(patients.id, patient.id));
    });
    changed += 1;
  }
  const [visit] = await db
    .select({ id: visits.id, qt: visits.qt })
    .from(visits)
    .where(and(eq(visits.is_done, true), isNotNull(visits.qt)))
    .orderBy(asc(visits.id))
    .limit(1);
  if (visit) {
    await inTransaction(db, actorUserId, async (tx) => {
      await markAuditReason(tx, { code: 'entry_error', text: null });
      await tx
        .update(visits)
        .set({ qt: (visit.qt ?? 400) + 10 })
        .where(eq(visits.id, visit.id));
    });
    changed += 1;
  }
  return changed;
}
