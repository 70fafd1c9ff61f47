import { barcodeSafe, kitCode, participantPart } from '@portal/shared';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, probeSetKits } from '../../db/schema.js';
import { conflict } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { findReachableProbeSet } from '../../policies/probe-sets.js';
import type { LabelContent } from '../probes/index.js';

/** The labels of an order's kits and how many of each the order asked for. */
export interface KitLabels {
  labels: LabelContent[];
  labels_amount: number;
  /** For the download's name: `zestawy-{id}`. */
  name: string;
}

/**
 * The labels of a reachable order's kits (ADR 035), printed when the kits are packed, before any
 * sample is drawn: per kit the DataMatrix and text of its code (`ZESTAW-{order}-{kit}`), the
 * heading `ZESTAW n/m` and the patient's participant code, barcode-safe, with no name: the
 * parcel travels by post. Only an accepted order's kits are sent, so only they have labels
 * (409 `not_accepted`); another unit's order and a missing one answer 404.
 */
export async function kitLabels(db: Database, actor: Actor, id: number): Promise<KitLabels> {
  const set = await findReachableProbeSet(db, actor, id);
  if (set.status !== 1) throw conflict('not_accepted');
  const [kits, [patient]] = await Promise.all([
    db
      .select({ kit_number: probeSetKits.kit_number })
      .from(probeSetKits)
      .where(eq(probeSetKits.probe_set_id, id))
      .orderBy(asc(probeSetKits.kit_number)),
    db
      .select({ project_number: patients.project_number })
      .from(patients)
      .where(eq(patients.id, set.patient_id)),
  ]);
  // The participant as the sample codes name it: the project number, else the id (ADR 041).
  const participant = barcodeSafe(participantPart(patient?.project_number ?? null, set.patient_id));
  return {
    labels: kits.map(({ kit_number }) => ({
      code: kitCode(id, kit_number),
      heading: `ZESTAW ${kit_number}/${set.amount}`,
      ...(participant === '' ? {} : { note: participant }),
    })),
    labels_amount: set.labels_amount,
    name: `zestawy-${id}`,
  };
}
