import type { ProbeSet, ProbeSetBody } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { probeSetKits, probeSets } from '../../db/schema.js';
import { findChangeablePatient } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';
import { loadProbeSet } from './queries.js';

/**
 * Orders kits for a patient the actor reaches (a staff member from the card, or the patient
 * through the patient API, whose own id the route puts in `patient_id`): the order and its kits
 * (one per kit, numbered from 1) in one transaction, status 0 (registered).
 */
export async function createProbeSet(
  db: Database,
  actor: Actor,
  body: ProbeSetBody,
): Promise<ProbeSet> {
  const id = await inTransaction(db, actor.userId, async (tx) => {
    const patient = await findChangeablePatient(tx, actor, body.patient_id);
    const [set] = await tx
      .insert(probeSets)
      .values({
        patient_id: patient.id,
        amount: body.amount,
        labels_amount: body.labels_amount,
        street: body.street,
        building: body.building,
        postcode: body.postcode,
        city: body.city,
        ordered_by: actor.userId,
      })
      .returning({ id: probeSets.id });
    if (!set) throw new Error('the order was not stored');
    await tx.insert(probeSetKits).values(
      Array.from({ length: body.amount }, (_, index) => ({
        probe_set_id: set.id,
        patient_id: patient.id,
        kit_number: index + 1,
      })),
    );
    return set.id;
  });
  const created = await loadProbeSet(db, id);
  if (!created) throw new Error('the stored order was not found');
  return created;
}
