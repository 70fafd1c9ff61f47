import type { Probe, ProbeSet, ProbeSetDecisionBody, TrackingBody } from '@portal/shared';
import { eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { probeSetKits, probeSets, probes, shipmentEvents } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import { findReachableKit, findReachableProbeSet } from '../../policies/probe-sets.js';
import { enqueueNotification } from '../notifications/index.js';
import { loadProbes } from '../probes/index.js';
import { loadProbeSet, loadProbeSets } from './queries.js';

/** The job that asks the tracking provider about one kit (handled by modules/shipments). */
export const REFRESH_KIT_JOB = 'shipments.refresh';

/**
 * One reachable order in its API shape (docs/api-conventions.md) (another unit's or a missing one:
 * 404).
 */
export async function getProbeSet(db: Database, actor: Actor, id: number): Promise<ProbeSet> {
  await findReachableProbeSet(db, actor, id);
  const found = await loadProbeSet(db, id);
  if (!found) throw notFound();
  return found;
}

/** A reachable patient's orders, newest first (404 for another unit's or a missing patient). */
export async function patientProbeSets(
  db: Database,
  actor: Actor,
  patientId: number,
): Promise<{ data: ProbeSet[] }> {
  await findReachablePatient(db, actor, patientId);
  return { data: await loadProbeSets(db, eq(probeSets.patient_id, patientId)) };
}

/**
 * Accepts (1) or rejects (2, with its reason) a registered order (docs/product-rules.md "Records
 * and their states"). One conditional UPDATE `where status = 0`: of two coordinators deciding at
 * once exactly one changes the row, the other finds it decided (409 `already_decided`); a stale
 * `version` of a still registered order answers 409 `conflict`. A deleted patient's orders are
 * read-only (409 patient_deleted).
 */
export async function decideProbeSet(
  db: Database,
  actor: Actor,
  id: number,
  body: ProbeSetDecisionBody,
): Promise<ProbeSet> {
  const set = await findReachableProbeSet(db, actor, id);
  await findChangeablePatient(db, actor, set.patient_id);
  await inTransaction(db, actor.userId, async (tx) => {
    await claimVersion(tx, probeSets, id, body.version, {
      set: {
        status: body.status,
        reason: body.status === 2 ? body.reason : null,
        decided_at: new Date(),
        decided_by: actor.userId,
        updated_at: new Date(),
      },
      state: { where: eq(probeSets.status, 0), refused: 'already_decided' },
    });
    // The patient hears of the decision, committed with it or not at all (ADR 061).
    await enqueueNotification(tx, {
      type: 'kit_order',
      probe_set_id: id,
      patient_id: set.patient_id,
      decision: body.status === 1 ? 'accepted' : 'rejected',
    });
  });
  return getProbeSet(db, actor, id);
}

interface JobSender {
  readonly running: boolean;
  send(name: string, data: { kit_id: number }, options: { singletonKey: string }): Promise<string>;
}

interface WarnLog {
  warn(details: object, message: string): void;
}

/**
 * A kit's waybill, only on a kit of an accepted order (409 `not_accepted`). A new code is a new
 * shipment: the kit's last status, delivery flag and last error are cleared and its old tracking
 * history deleted, in the same transaction (so the audit trail shows the old and new code). The
 * same code again changes nothing. A stale kit `version` answers 409 `conflict`. Then, when the
 * job queue runs, a refresh of the kit is queued (one per kit) so the new waybill is checked
 * soon; a queue failure is logged and never fails the save.
 */
export async function saveTracking(
  db: Database,
  actor: Actor,
  kitId: number,
  body: TrackingBody,
  jobs: JobSender,
  log: WarnLog,
): Promise<ProbeSet> {
  const kit = await findReachableKit(db, actor, kitId);
  await findChangeablePatient(db, actor, kit.patient_id);
  const outcome = await inTransaction(db, actor.userId, async (tx) => {
    // The kit locked first: what it holds now decides (an accepted order stays accepted).
    const [current] = await tx
      .select({
        tracking_code: probeSetKits.tracking_code,
        version: probeSetKits.version,
        status: probeSets.status,
      })
      .from(probeSetKits)
      .innerJoin(probeSets, eq(probeSets.id, probeSetKits.probe_set_id))
      .where(eq(probeSetKits.id, kitId))
      .for('update', { of: probeSetKits });
    if (!current) throw notFound();
    if (current.status !== 1) return 'not_accepted' as const;
    // The same code at the version read changes nothing; a stale version answers 409 either way.
    if (current.tracking_code === body.tracking_code && current.version === body.version) {
      return 'unchanged' as const;
    }
    await claimVersion(tx, probeSetKits, kitId, body.version, {
      set: {
        tracking_code: body.tracking_code,
        last_status: null,
        last_status_date: null,
        delivered: false,
        last_error: null,
        last_checked_at: null,
        updated_at: new Date(),
      },
    });
    // A new waybill starts a new history: the old code's events are not this shipment's.
    await tx.delete(shipmentEvents).where(eq(shipmentEvents.kit_id, kitId));
    return 'saved' as const;
  });
  if (outcome === 'not_accepted') throw conflict(outcome);
  if (outcome === 'saved' && jobs.running) {
    try {
      await jobs.send(REFRESH_KIT_JOB, { kit_id: kitId }, { singletonKey: `kit-${kitId}` });
    } catch (error) {
      log.warn(
        { err: error, kit_id: kitId },
        'the tracking refresh of a new waybill was not queued',
      );
    }
  }
  return getProbeSet(db, actor, kit.probe_set_id);
}

/** The samples drawn with the kits of a reachable order, newest first. */
export async function probeSetProbes(
  db: Database,
  actor: Actor,
  id: number,
): Promise<{ data: Probe[] }> {
  await findReachableProbeSet(db, actor, id);
  const kitIds = db
    .select({ id: probeSetKits.id })
    .from(probeSetKits)
    .where(eq(probeSetKits.probe_set_id, id));
  return { data: await loadProbes(db, inArray(probes.probe_set_kit_id, kitIds)) };
}
