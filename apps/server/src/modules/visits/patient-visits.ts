import { eq } from 'drizzle-orm';
import type { Visit } from '@portal/shared';
import type { Queryable } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import type { Actor } from '../../plugins/policy.js';
import { findReachablePatient } from '../../policies/patients.js';
import { loadVisits } from './queries.js';

/**
 * The live visits of a patient the actor reaches (404 otherwise). A deleted patient's visits
 * stay readable, like the rest of its card.
 */
export async function patientVisits(
  db: Queryable,
  actor: Actor,
  patientId: number,
): Promise<Visit[]> {
  await findReachablePatient(db, actor, patientId);
  return loadVisits(db, actor, eq(visits.patient_id, patientId));
}
