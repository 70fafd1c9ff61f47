import { warsawDayEnd, warsawDayStart } from '@portal/shared';
import type { ProbeListItem, ProbeListQuery } from '@portal/shared';
import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, probeMedicines, probeSetKits, probes } from '../../db/schema.js';
import { shipmentOf } from '../shipments/index.js';
import { inOrderOf, listTotal, totalKey, pagedAnswer } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { matchesPage, prefixKey, searchCondition } from '../../lib/search-terms.js';
import { reachUnit, unitIn, unitsInReach } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import type { Actor } from '../../plugins/policy.js';

/**
 * The samples list (GET /api/probes), the pattern of ADR 021: the page's ids from the probes
 * table alone (an index per sort and filter, migration 0014), then the rows of those ids. The
 * patient column, its sort and the search use the names written on the sample
 * (probes.patient_surname / patient_firstname), so no page joins or sorts the patients table;
 * only a doctor's scope looks at patients.unit_id, a semi-join probing its primary key.
 */

/**
 * The text the search looks in: "code surname firstname surname", so "Jan Kowalski",
 * "Kowalski Jan" and part of the number all match; indexed by probes_search_trgm_idx (0014).
 */
export const probeSearchText = sql`${probes.code} || ' ' || ${probes.patient_surname} || ' ' || ${probes.patient_firstname} || ' ' || ${probes.patient_surname}`;

export function probeSearch(term: string | undefined): SQL | undefined {
  return searchCondition(term, {
    contains: [probeSearchText],
    prefix: [
      prefixKey(probes.code),
      prefixKey(probes.patient_surname),
      prefixKey(probes.patient_firstname),
    ],
  });
}

interface ProbeFilter {
  /** The units within reach (null: all; ADR 051 lets a monitor reach several). */
  units: readonly number[] | null;
  /** The one unit named (checked within reach). */
  unit?: number;
  patientIds?: number[];
  from?: Date;
  to?: Date;
  search?: string;
  status?: ProbeListQuery['status'];
  outOfNorm?: string;
}

async function probeFilter(
  db: Database,
  actor: Actor,
  query: ProbeListQuery,
): Promise<ProbeFilter> {
  const search = query.search?.trim();
  // Another unit (or none such) answers 404, as the visits list does.
  if (query.unit_id !== undefined) await reachUnit(db, actor, query.unit_id);
  return {
    units: unitsInReach(actor),
    ...(query.unit_id !== undefined ? { unit: query.unit_id } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.out_of_norm ? { outOfNorm: query.out_of_norm } : {}),
    // Sorted and unique: the same patients in any order are one remembered total.
    ...(query.patientIds
      ? { patientIds: [...new Set(query.patientIds)].sort((a, b) => a - b) }
      : {}),
    // The created day in Warsaw, both ends included, whatever the server's time zone.
    ...(query.from_date ? { from: warsawDayStart(query.from_date) } : {}),
    ...(query.to_date ? { to: warsawDayEnd(query.to_date) } : {}),
    ...(search ? { search } : {}),
  };
}

const BIOCHEMISTRY_COLUMNS = {
  alt: probes.alt,
  ast: probes.ast,
  creatine: probes.creatine,
  bilirubine: probes.bilirubine,
} as const;

/**
 * Out of norm as the dashboard counts it (ADR 060, migrations 0033 and 0035): the same SQL
 * functions the counters' triggers call, with the patient's sex (`patients` is the semi-join's).
 */
function outOfNormCondition(analyte: string): SQL {
  const medicine = /^medicine_(\d+)$/.exec(analyte);
  if (medicine) {
    const key = `analyte_out|${analyte}`;
    return sql`exists (select 1 from ${probeMedicines} where ${probeMedicines.probe_id} = ${probes.id} and ${probeMedicines.medicine_id} = ${Number(medicine[1])} and ${key} = any(dashboard_medicine_keys(${probeMedicines}, ${probes}, ${patients.sex})))`;
  }
  const column = BIOCHEMISTRY_COLUMNS[analyte as keyof typeof BIOCHEMISTRY_COLUMNS];
  return sql`${column} is not null and dashboard_out_of_norm(${column}, ${probes.result_comparators} -> ${analyte}, ${probes.lab_ranges} -> ${analyte}, ${analyte}, ${patients.sex})`;
}

function conditions(filter: ProbeFilter): SQL | undefined {
  return and(
    // The sample follows its patient: the patient's unit now (as findReachableProbe), and only
    // active patients' samples are listed, as the dashboard counts them (ADR 060).
    sql`exists (select 1 from ${patients} where ${and(
      sql`${patients.id} = ${probes.patient_id}`,
      isNull(patients.deleted_at),
      filter.units === null ? undefined : unitIn(patients.unit_id, filter.units),
      filter.unit === undefined ? undefined : eq(patients.unit_id, filter.unit),
      filter.outOfNorm === undefined ? undefined : outOfNormCondition(filter.outOfNorm),
    )})`,
    filter.status ? eq(probes.status, filter.status) : undefined,
    filter.patientIds ? inArray(probes.patient_id, filter.patientIds) : undefined,
    filter.from ? gte(probes.created_at, filter.from) : undefined,
    filter.to ? lt(probes.created_at, filter.to) : undefined,
    probeSearch(filter.search),
  );
}

/** The ORDER BY of each sort: an index's columns, ending with the id unless the key is unique. */
const SORT_COLUMNS = {
  created_at: ['created_at', 'id'],
  code: ['code'],
  patient: ['patient_surname', 'patient_firstname', 'id'],
  type_of_material: ['type_of_material', 'id'],
  status: ['status', 'id'],
  // The kit's status copied onto the sample (migration 0022): no page joins the kits.
  shipment_status: ['shipment_status', 'id'],
} as const satisfies Record<ProbeListQuery['order_by'], readonly (keyof typeof probes._.columns)[]>;

async function pageIds(db: Database, filter: ProbeFilter, query: ProbeListQuery, offset: number) {
  const columns = SORT_COLUMNS[query.order_by];
  const where = conditions(filter);
  // A search pages through its matches: the trigram (or prefix) index finds them and only they
  // are sorted (ADR 021, matchesPage). Left to itself the planner walks the sort's index and
  // filters: a searched name clusters in the patient sort's index ("kowal" would skip every
  // earlier name), and a doctor's "kowal" sorted by date took 527 ms (p50, PostgreSQL, 1,000,000
  // samples) against 48 ms through its matches (bench, BENCH_ONLY=probes).
  if (filter.search) {
    const matches = db
      .select({
        id: probes.id,
        created_at: probes.created_at,
        code: probes.code,
        patient_surname: probes.patient_surname,
        patient_firstname: probes.patient_firstname,
        type_of_material: probes.type_of_material,
        status: probes.status,
        shipment_status: probes.shipment_status,
      })
      .from(probes)
      .where(where);
    const order = columns.map((column) => `${column} ${query.order_direction}`).join(', ');
    return matchesPage(db, matches, order, query.limit, offset);
  }
  const dir = query.order_direction === 'asc' ? asc : desc;
  const rows = await db
    .select({ id: probes.id })
    .from(probes)
    .where(where)
    .orderBy(...columns.map((column) => dir(probes[column])))
    .limit(query.limit)
    .offset(offset);
  return rows.map((row) => row.id);
}

async function rowsOf(db: Database, ids: number[]): Promise<ProbeListItem[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: probes.id,
      code: probes.code,
      created_at: probes.created_at,
      date_of_sample: probes.date_of_sample,
      status: probes.status,
      type_of_test: probes.type_of_test,
      type_of_material: probes.type_of_material,
      collect_place: probes.collect_place,
      patient_id: probes.patient_id,
      firstname: probes.patient_firstname,
      surname: probes.patient_surname,
      kit: {
        tracking_code: probeSetKits.tracking_code,
        last_status: probeSetKits.last_status,
        last_status_date: probeSetKits.last_status_date,
      },
    })
    .from(probes)
    // A home sample's kit, by its primary key: a page's 20–100 probes, no sort over kits.
    .leftJoin(probeSetKits, eq(probeSetKits.id, probes.probe_set_kit_id))
    .where(inArray(probes.id, ids));
  return inOrderOf(ids, rows, (row) => row.id).map(
    ({ firstname, surname, created_at, kit, ...row }) => ({
      ...row,
      created_at: created_at.toISOString(),
      patient: { firstname, surname },
      shipment: kit ? shipmentOf(kit) : null,
    }),
  );
}

export interface ProbeListOptions {
  /** Tests only: the table size from which the unfiltered total is estimated. */
  estimateFrom?: number;
}

export async function listProbes(
  db: Database,
  actor: Actor,
  query: ProbeListQuery,
  options: ProbeListOptions = {},
) {
  const filter = await probeFilter(db, actor, query);
  const unfiltered =
    filter.units === null &&
    filter.unit === undefined &&
    !filter.status &&
    !filter.outOfNorm &&
    !filter.patientIds &&
    !filter.from &&
    !filter.to &&
    !filter.search;
  const total = listTotal(db, {
    key: totalKey('probes', {
      scope: filter.units?.join(',') ?? 'all',
      patientIds: filter.patientIds,
      from: query.from_date,
      to: query.to_date,
      search: filter.search,
      unit: filter.unit,
      status: filter.status,
      outOfNorm: filter.outOfNorm,
    }),
    rows: () => db.select({ id: probes.id }).from(probes).where(conditions(filter)).$dynamic(),
    ...(unfiltered ? { unfilteredTable: 'probes' } : {}),
    ...(options.estimateFrom !== undefined ? { estimateFrom: options.estimateFrom } : {}),
  });
  const ids = await pageIds(db, filter, query, offsetOf(query.page, query.limit));
  const [data, counted] = await Promise.all([rowsOf(db, ids), total]);
  return pagedAnswer(
    data.map((row) => shownIdentity(actor, row)),
    counted,
  );
}
