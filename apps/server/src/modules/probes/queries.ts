import { rangeFor, isOutOfNormQualified, BIOCHEMISTRY_ANALYTES } from '@portal/shared';
import type { Probe, ReferenceRange, ReferenceRangeRow } from '@portal/shared';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { shipmentOf } from '../shipments/index.js';
import {
  carriers,
  doctors,
  medicines,
  patients,
  probeMedicines,
  probeSetKits,
  probes,
  referenceRanges,
  users,
} from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';

export type ProbeRow = typeof probes.$inferSelect;

/** Every stored reference range (a few rows; read per request so that edits apply at once). */
export async function loadReferenceRanges(db: Queryable): Promise<ReferenceRangeRow[]> {
  const rows = await db.select().from(referenceRanges).orderBy(asc(referenceRanges.id));
  return rows.map((row) => ({
    kind: row.kind,
    analyte: row.analyte,
    unit: row.unit,
    sex: row.sex,
    min: row.min,
    max: row.max,
    below: row.below,
  }));
}

/** The name shown for a user: a doctor's first name and surname, else the login. */
export function userNameSql(userId: SQL | AnyPgColumn): SQL<string> {
  return sql<string>`(
    select coalesce(${doctors.firstname} || ' ' || ${doctors.surname}, ${users.login})
    from ${users} left join ${doctors} on ${doctors.user_id} = ${users.id}
    where ${users.id} = ${userId}
  )`;
}

/**
 * The samples matching `where`, in its API shape (docs/api-conventions.md), newest first, with
 * their medicines, results, the reference range of each result for the patient's sex and the
 * out-of-norm flags.
 */
export async function loadProbes(db: Queryable, where: SQL | undefined): Promise<Probe[]> {
  const rows = await db
    .select({
      probe: probes,
      carrier: { id: carriers.id, name: carriers.name },
      sex: patients.sex,
      kit: {
        probe_set_id: probeSetKits.probe_set_id,
        tracking_code: probeSetKits.tracking_code,
        last_status: probeSetKits.last_status,
        last_status_date: probeSetKits.last_status_date,
      },
      arrived_by_name: sql<
        string | null
      >`case when ${probes.arrived_by} is null then null else ${userNameSql(probes.arrived_by)} end`,
    })
    .from(probes)
    .innerJoin(patients, eq(patients.id, probes.patient_id))
    .innerJoin(carriers, eq(carriers.id, probes.carrier_id))
    // The kit the sample was drawn with at home (issue 11), by its primary key.
    .leftJoin(probeSetKits, eq(probeSetKits.id, probes.probe_set_kit_id))
    .where(where)
    .orderBy(sql`${probes.created_at} desc`, sql`${probes.id} desc`);
  if (rows.length === 0) return [];

  const ids = rows.map((row) => row.probe.id);
  const [medicineRows, ranges] = await Promise.all([
    db
      .select({
        probe_id: probeMedicines.probe_id,
        medicine_id: probeMedicines.medicine_id,
        concentration: probeMedicines.concentration,
        inn: medicines.inn,
      })
      .from(probeMedicines)
      .innerJoin(medicines, eq(medicines.id, probeMedicines.medicine_id))
      .where(inArray(probeMedicines.probe_id, ids))
      .orderBy(asc(probeMedicines.medicine_id)),
    loadReferenceRanges(db),
  ]);
  const medicinesOf = new Map<number, typeof medicineRows>();
  for (const row of medicineRows) {
    const list = medicinesOf.get(row.probe_id) ?? [];
    list.push(row);
    medicinesOf.set(row.probe_id, list);
  }

  return rows.map(({ probe, carrier, sex, kit, arrived_by_name }) =>
    presentProbe(probe, {
      carrier,
      sex,
      set: kit ? { id: kit.probe_set_id, shipment: shipmentOf(kit) } : null,
      medicines: medicinesOf.get(probe.id) ?? [],
      ranges,
      arrivedByName: arrived_by_name,
    }),
  );
}

export interface ProbeRelations {
  carrier: { id: number; name: string };
  sex: 'M' | 'K';
  medicines: readonly { medicine_id: number; concentration: number | null; inn: string }[];
  ranges: readonly ReferenceRangeRow[];
  arrivedByName: string | null;
  /** The order whose kit the sample was drawn with, and that kit's shipment. */
  set?: Probe['set'];
}

/**
 * A probe row in its API shape (docs/api-conventions.md): every field named, so no new column leaks
 * out.
 */
export function presentProbe(probe: ProbeRow, related: ProbeRelations): Probe {
  const { sex, ranges } = related;
  const biochemistry = {
    alt: probe.alt,
    ast: probe.ast,
    creatine: probe.creatine,
    bilirubine: probe.bilirubine,
  };
  const rangeOf: Record<string, ReferenceRange> = {};
  const outOfNorm: string[] = [];
  const labRanges = probe.lab_ranges ?? {};
  const comparators = probe.result_comparators ?? {};
  for (const analyte of BIOCHEMISTRY_ANALYTES) {
    const range = fromLaboratory(
      labRanges[analyte],
      rangeFor(ranges, 'biochemistry', analyte, sex),
    );
    if (!range) continue;
    rangeOf[analyte] = range;
    if (isOutOfNormQualified(biochemistry[analyte], comparators[analyte], range)) {
      outOfNorm.push(analyte);
    }
  }
  for (const medicine of related.medicines) {
    const key = `medicine_${medicine.medicine_id}`;
    const range = fromLaboratory(labRanges[key], rangeFor(ranges, 'drug', medicine.inn, sex));
    if (!range) continue;
    rangeOf[key] = range;
    if (isOutOfNormQualified(medicine.concentration, comparators[key], range)) outOfNorm.push(key);
  }
  const laboratory =
    probe.laboratory_address !== null
      ? {
          address: probe.laboratory_address,
          postcode: probe.laboratory_postcode ?? '',
          city: probe.laboratory_city ?? '',
        }
      : null;
  return {
    id: probe.id,
    code: probe.code,
    status: probe.status,
    created_at: probe.created_at.toISOString(),
    updated_at: probe.updated_at.toISOString(),
    date_of_sample: probe.date_of_sample,
    type_of_test: probe.type_of_test,
    type_of_material: probe.type_of_material,
    collect_place: probe.collect_place,
    is_cito: probe.is_cito,
    carrier_id: probe.carrier_id,
    carrier: related.carrier,
    medicine_ids: related.medicines.map((medicine) => medicine.medicine_id),
    ordered_by_firstname: probe.ordered_by_firstname,
    ordered_by_surname: probe.ordered_by_surname,
    ordered_at: probe.ordered_at,
    patient_firstname: probe.patient_firstname,
    patient_surname: probe.patient_surname,
    patient_address_street: probe.patient_address_street,
    patient_address_building: probe.patient_address_building,
    patient_address_postcode: probe.patient_address_postcode,
    patient_address_city: probe.patient_address_city,
    patient_id: probe.patient_id,
    patient_sex: sex,
    visit_id: probe.visit_id,
    laboratory,
    set: related.set ?? null,
    adverse_events: probe.adverse_events,
    biochemistry_results: biochemistry,
    concentrations_results: {
      hours: probe.concentration_hours,
      date_of_analysis: probe.concentration_date_of_analysis,
      concentrations: related.medicines.map((medicine) => ({
        medicine_id: medicine.medicine_id,
        value: medicine.concentration,
      })),
    },
    concentration_range: rangeOf,
    results_out_of_norm: outOfNorm,
    result_comparators: comparators,
    lab_comments: {
      sample: probe.lab_comments?.sample ?? null,
      results: probe.lab_comments?.results ?? {},
    },
    results_at: probe.results_at?.toISOString() ?? null,
    arrived_at: probe.arrived_at?.toISOString() ?? null,
    arrived_by:
      probe.arrived_by !== null
        ? { id: probe.arrived_by, name: related.arrivedByName ?? '' }
        : null,
    version: probe.version,
  };
}

/**
 * The laboratory's own range, sent with its result, wins over the study's (docs/product-rules.md
 * "Out of norm" "Laboratory integration"): a "<1.2" range is a "<" limit like the study's `below`.
 * A range without a bound (text only) keeps the study's.
 */
export function fromLaboratory(
  lab: LabRange | undefined,
  study: ReferenceRange | null,
): ReferenceRange | null {
  if (!lab || (lab.min === null && lab.max === null)) return study;
  const unit = lab.unit ?? study?.unit ?? '';
  // "(<1.0)" as "<1.0" (ADR 033): brackets do not change the limit.
  const text = lab.text.trim().replace(/^[([{]\s*/, '');
  if (text.startsWith('<') && !text.startsWith('<=')) {
    return { unit, min: null, max: null, below: lab.max, source: 'laboratory' };
  }
  return { unit, min: lab.min, max: lab.max, below: null, source: 'laboratory' };
}

/** One sample by id in its API shape (docs/api-conventions.md), or null. */
export async function loadProbe(db: Queryable, id: number): Promise<Probe | null> {
  const [found] = await loadProbes(db, eq(probes.id, id));
  return found ?? null;
}
