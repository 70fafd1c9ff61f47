import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { ProbeSet, ProbeSetKit, Shipment } from '@portal/shared';
import type { Queryable } from '../../db/client.js';
import { patients, probeSetKits, probeSets, shipmentEvents } from '../../db/schema.js';
import { userNameSql } from '../probes/index.js';
import { shipmentOf } from '../shipments/index.js';

type KitRow = typeof probeSetKits.$inferSelect;

// Map.groupBy arrives with Node 21; the portal runs on Node 20.
function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * The order's shipment as one line (the list's column): the least advanced kit with a waybill,
 * so "delivered" shows only when every sent kit arrived; null when no kit has a waybill.
 */
export function orderShipment(kits: readonly KitRow[]): Shipment | null {
  const sent = kits.filter((kit) => kit.tracking_code);
  const lagging = sent.find((kit) => !kit.delivered) ?? sent.at(-1);
  return lagging ? shipmentOf(lagging) : null;
}

/**
 * The orders matching `where` in its API shape (docs/api-conventions.md), newest first, each with
 * its kits, their shipments and tracking histories. The caller scopes `where` (policies) and pages.
 */
export async function loadProbeSets(db: Queryable, where: SQL | undefined): Promise<ProbeSet[]> {
  const rows = await db
    .select({
      set: probeSets,
      patient: { firstname: patients.firstname, surname: patients.surname },
      decided_by: sql<
        string | null
      >`case when ${probeSets.decided_by} is null then null else ${userNameSql(probeSets.decided_by)} end`,
    })
    .from(probeSets)
    .innerJoin(patients, eq(patients.id, probeSets.patient_id))
    .where(where)
    .orderBy(sql`${probeSets.id} desc`);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.set.id);
  const kits = await db
    .select()
    .from(probeSetKits)
    .where(inArray(probeSetKits.probe_set_id, ids))
    .orderBy(asc(probeSetKits.probe_set_id), asc(probeSetKits.kit_number));
  const events =
    kits.length === 0
      ? []
      : await db
          .select()
          .from(shipmentEvents)
          .where(
            inArray(
              shipmentEvents.kit_id,
              kits.map((kit) => kit.id),
            ),
          )
          .orderBy(
            asc(shipmentEvents.kit_id),
            asc(shipmentEvents.occurred_at),
            asc(shipmentEvents.id),
          );

  const eventsOf = groupBy(events, (event) => event.kit_id);
  const kitsOf = groupBy(kits, (kit) => kit.probe_set_id);
  return rows.map(({ set, patient, decided_by }) => {
    const own = kitsOf.get(set.id) ?? [];
    return {
      id: set.id,
      created_at: set.created_at.toISOString(),
      patient_id: set.patient_id,
      patient,
      amount: set.amount,
      labels_amount: set.labels_amount,
      street: set.street,
      building: set.building,
      postcode: set.postcode,
      city: set.city,
      status: set.status as ProbeSet['status'],
      reason: set.reason,
      decided_at: set.decided_at?.toISOString() ?? null,
      decided_by,
      shipment: orderShipment(own),
      sets: own.map((kit): ProbeSetKit => ({
        id: kit.id,
        kit_number: kit.kit_number,
        shipment: shipmentOf(kit),
        delivered: kit.delivered,
        last_error: kit.last_error,
        last_checked_at: kit.last_checked_at?.toISOString() ?? null,
        events: (eventsOf.get(kit.id) ?? []).map((event) => ({
          status: event.status,
          occurred_at: event.occurred_at.toISOString(),
          place: event.place,
        })),
        version: kit.version,
      })),
      version: set.version,
    };
  });
}

/** One order by id (the caller has checked that the actor reaches it). */
export async function loadProbeSet(db: Queryable, id: number): Promise<ProbeSet | undefined> {
  const [set] = await loadProbeSets(db, eq(probeSets.id, id));
  return set;
}
