import type { MonitoredRecordType } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { patients } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { findReachablePatient } from './patients.js';
import { findReachableProbe } from './probes.js';
import { findReachableVisit } from './visits.js';

/** A record a signature, a verification mark or a query speaks of, with its patient. */
export interface ReachedRecord {
  patientId: number;
  /** The patient's unit now. */
  unitId: number;
  patientDeletedAt: Date | null;
  /** A visit is recorded, a sample has results; a patient always holds entered data. */
  holdsData: boolean;
}

/**
 * The record of the given type if the actor reaches it (its patient's unit, ADR 004 and 051);
 * another unit's and a missing one answer 404.
 */
export async function findReachableRecord(
  db: Queryable,
  actor: Actor,
  type: MonitoredRecordType,
  id: number,
): Promise<ReachedRecord> {
  if (type === 'patient') {
    const row = await findReachablePatient(db, actor, id);
    return {
      patientId: row.id,
      unitId: row.unit_id,
      patientDeletedAt: row.deleted_at,
      holdsData: true,
    };
  }
  const [patientId, holdsData] =
    type === 'visit'
      ? await findReachableVisit(db, actor, id).then((v) => [v.patient_id, v.is_done] as const)
      : await findReachableProbe(db, actor, id).then(
          (p) => [p.patient_id, p.results_at !== null] as const,
        );
  const [patient] = await db
    .select({ unitId: patients.unit_id, deletedAt: patients.deleted_at })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!patient) throw notFound();
  return { patientId, unitId: patient.unitId, patientDeletedAt: patient.deletedAt, holdsData };
}
