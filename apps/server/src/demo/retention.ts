import { and, desc, eq, isNull } from 'drizzle-orm';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { patients } from '../db/schema.js';
import { anonymisePatient } from '../modules/retention/index.js';
import { saveSetting } from '../modules/settings/index.js';
import { loadDemoAdmin } from './actor.js';

/**
 * Retention in the demo (issue 24, ADR 059): the setting at 10 years, and one patient whose
 * participation ended and whose identity was removed as the retention job removes it, so the
 * card, the lists and the audit trail show what an anonymised patient looks like.
 */
export async function addDemoRetention(db: Database, adminUserId: number): Promise<number | null> {
  const actor = await loadDemoAdmin(db, adminUserId);
  if (!actor) return null;
  await saveSetting(db, null, actor, 'retention', { value: { years: 10 } });
  const [patient] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(isNull(patients.deleted_at), isNull(patients.import_batch_id)))
    .orderBy(desc(patients.id))
    .limit(1);
  if (!patient) return null;
  await inTransaction(db, adminUserId, async (tx) => {
    await tx.update(patients).set({ is_finished: true }).where(eq(patients.id, patient.id));
  });
  await inTransaction(db, adminUserId, (tx) => anonymisePatient(tx, patient.id));
  return patient.id;
}
