import type { MonitoredRecordType, SignedRecordAbilities } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { patients } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
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

/**
 * What the actor may do with a visit's or sample's signatures and lock (ADR 045, 048, 050): sign a
 * record holding entered data of a patient not deleted; lock a signed record that is not locked
 * (whether a signature is still valid is the write's own check, 409 `not_signed`, which the screen
 * explains); unlock a locked one; verify it against the source (a monitor).
 */
export function signedRecordAbilities(
  actor: Actor,
  record: Pick<ReachedRecord, 'holdsData' | 'patientDeletedAt'>,
  state: { signed: boolean; locked: boolean },
): SignedRecordAbilities {
  const locker = can(actor, 'records.lock');
  return {
    sign: can(actor, 'signatures.sign') && record.holdsData && record.patientDeletedAt === null,
    lock: locker && state.signed && !state.locked,
    unlock: locker && state.locked,
    // Any record the monitor reaches may be marked (again: the mark stays), ADR 051.
    verify: can(actor, 'monitor.verify'),
  };
}
