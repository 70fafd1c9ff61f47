import { warsawDayEnd, warsawDayStart } from '@portal/shared';
import type { ProbeSetListItem, ProbeSetListQuery, ProbeSetStatus } from '@portal/shared';
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, probeSetKits, probeSets } from '../../db/schema.js';
import { inOrderOf, listTotal, totalKey, pagedAnswer } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { unitScope } from '../../policies/units.js';
import type { Actor } from '../../plugins/policy.js';
import { patientSearch } from '../patients/index.js';
import { orderShipment } from './queries.js';

/**
 * The kit-order list (GET /api/probe-sets), the pattern of ADR 021: the page's ids first, then
 * the rows of those ids. Orders are far fewer than samples (one per patient every few weeks), so
 * the id and created-day sorts walk the indexes of migration 0015 (probe_sets pkey,
 * created_at+id, patient_id+id) and the rarer sorts (patient, amount, status) sort the filtered
 * rows. The search looks in the patients' names through the patients' own trigram and prefix
 * indexes, then reaches the orders by patient_id+id.
 */

interface ProbeSetFilter {
  unit: number | null;
  patientIds?: number[];
  from?: Date;
  to?: Date;
  status?: ProbeSetStatus;
  search?: string;
  /** Whose search it is: how much of a PESEL it may match (ADR 053). */
  actor: Actor;
}

function probeSetFilter(actor: Actor, query: ProbeSetListQuery): ProbeSetFilter {
  const search = query.search?.trim();
  return {
    unit: unitScope(actor),
    // Sorted and unique: the same patients in any order are one remembered total.
    ...(query.patientIds
      ? { patientIds: [...new Set(query.patientIds)].sort((a, b) => a - b) }
      : {}),
    // The created day in Warsaw, both ends included, whatever the server's time zone.
    ...(query.from_date ? { from: warsawDayStart(query.from_date) } : {}),
    ...(query.to_date ? { to: warsawDayEnd(query.to_date) } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(search ? { search } : {}),
    actor,
  };
}

function conditions(filter: ProbeSetFilter): SQL | undefined {
  const patientSearched = filter.search ? patientSearch(filter.search, filter.actor) : undefined;
  return and(
    // The order follows its patient: the patient's unit now (as findReachableProbeSet).
    filter.unit === null
      ? undefined
      : sql`exists (select 1 from ${patients} where ${patients.id} = ${probeSets.patient_id} and ${patients.unit_id} = ${filter.unit})`,
    filter.patientIds ? inArray(probeSets.patient_id, filter.patientIds) : undefined,
    filter.from ? gte(probeSets.created_at, filter.from) : undefined,
    filter.to ? lt(probeSets.created_at, filter.to) : undefined,
    filter.status !== undefined ? eq(probeSets.status, filter.status) : undefined,
    patientSearched
      ? sql`${probeSets.patient_id} in (select ${patients.id} from ${patients} where ${patientSearched})`
      : undefined,
  );
}

async function pageIds(
  db: Database,
  filter: ProbeSetFilter,
  query: ProbeSetListQuery,
  offset: number,
): Promise<number[]> {
  const dir = query.order_direction === 'asc' ? asc : desc;
  const where = conditions(filter);
  if (query.order_by === 'patient') {
    const rows = await db
      .select({ id: probeSets.id })
      .from(probeSets)
      .innerJoin(patients, eq(patients.id, probeSets.patient_id))
      .where(where)
      .orderBy(dir(patients.surname), dir(patients.firstname), dir(probeSets.id))
      .limit(query.limit)
      .offset(offset);
    return rows.map((row) => row.id);
  }
  const columns = {
    id: [probeSets.id],
    created_at: [probeSets.created_at, probeSets.id],
    amount: [probeSets.amount, probeSets.id],
    status: [probeSets.status, probeSets.id],
  }[query.order_by];
  const rows = await db
    .select({ id: probeSets.id })
    .from(probeSets)
    .where(where)
    .orderBy(...columns.map((column) => dir(column)))
    .limit(query.limit)
    .offset(offset);
  return rows.map((row) => row.id);
}

async function rowsOf(db: Database, ids: number[]): Promise<ProbeSetListItem[]> {
  if (ids.length === 0) return [];
  const [rows, kits] = await Promise.all([
    db
      .select({
        set: probeSets,
        patient: { firstname: patients.firstname, surname: patients.surname },
      })
      .from(probeSets)
      .innerJoin(patients, eq(patients.id, probeSets.patient_id))
      .where(inArray(probeSets.id, ids)),
    db
      .select()
      .from(probeSetKits)
      .where(inArray(probeSetKits.probe_set_id, ids))
      .orderBy(asc(probeSetKits.probe_set_id), asc(probeSetKits.kit_number)),
  ]);
  const kitsOf = new Map<number, (typeof kits)[number][]>();
  for (const kit of kits) {
    const list = kitsOf.get(kit.probe_set_id) ?? [];
    list.push(kit);
    kitsOf.set(kit.probe_set_id, list);
  }
  return inOrderOf(ids, rows, (row) => row.set.id).map(({ set, patient }) => ({
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
    status: set.status as ProbeSetStatus,
    reason: set.reason,
    decided_at: set.decided_at?.toISOString() ?? null,
    shipment: orderShipment(kitsOf.get(set.id) ?? []),
  }));
}

export interface ProbeSetListOptions {
  /** Tests only: the table size from which the unfiltered total is estimated. */
  estimateFrom?: number;
}

/** A page of the orders the actor reaches, with the total of ADR 021. */
export async function listProbeSets(
  db: Database,
  actor: Actor,
  query: ProbeSetListQuery,
  options: ProbeSetListOptions = {},
) {
  const filter = probeSetFilter(actor, query);
  const unfiltered =
    filter.unit === null &&
    !filter.patientIds &&
    !filter.from &&
    !filter.to &&
    filter.status === undefined &&
    !filter.search;
  const total = listTotal(db, {
    key: totalKey('probe_sets', {
      scope: filter.unit ?? 'all',
      patientIds: filter.patientIds,
      from: query.from_date,
      to: query.to_date,
      status: filter.status,
      search: filter.search,
    }),
    rows: () =>
      db.select({ id: probeSets.id }).from(probeSets).where(conditions(filter)).$dynamic(),
    ...(unfiltered ? { unfilteredTable: 'probe_sets' } : {}),
    ...(options.estimateFrom !== undefined ? { estimateFrom: options.estimateFrom } : {}),
  });
  const ids = await pageIds(db, filter, query, offsetOf(query.page, query.limit));
  const [data, counted] = await Promise.all([rowsOf(db, ids), total]);
  return pagedAnswer(data, counted);
}
