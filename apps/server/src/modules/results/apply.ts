import type { ResultComparator } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { LabRange } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { evaluateProbesAlerts } from '../safety-alerts/index.js';

export type BiochemistryAnalyte = 'alt' | 'ast' | 'creatine' | 'bilirubine';
export type LabAnalyte = BiochemistryAnalyte | `medicine_${number}`;

export const BIOCHEMISTRY_ANALYTES: readonly BiochemistryAnalyte[] = [
  'alt',
  'ast',
  'creatine',
  'bilirubine',
];

/** One result for one sample, as the laboratory (or an import, or a match) gives it. */
export interface LabResult {
  analyte: LabAnalyte;
  /** Already unit-checked: U/l (ALT, AST), mg/dl (creatinine, bilirubin), ng/ml (drugs). */
  value: number;
  /**
   * How the laboratory qualified it (HL7 SN, ADR 033): `<` 0.5, `>` 1000, `-` a range. Absent or
   * null for a plain value (hand entry, import): a stored qualifier of the analyte is cleared.
   */
  comparator?: ResultComparator | null;
  /** The laboratory's own range, kept in `probes.lab_ranges` and preferred for the flags. */
  labRange: LabRange | null;
  /** YYYY-MM-DD. */
  dateOfAnalysis: string | null;
  /** Drug concentrations: hours since the last dose. */
  hours: number | null;
}

/**
 * The laboratory's comments that come with a sample's results (HL7 only): the sample's replaces
 * the one kept when given; a result's replaces that analyte's, and a result sent again without
 * one clears it.
 */
export interface IncomingComments {
  sample: string | null;
  results: Partial<Record<LabAnalyte, string>>;
}

/** The results of one sample. */
export interface SampleResults {
  probeId: number;
  results: LabResult[];
  comments?: IncomingComments | null;
}

/** `medicine_12` → 12; anything else → null. */
export function medicineIdOf(analyte: string): number | null {
  const match = /^medicine_([1-9][0-9]{0,8})$/.exec(analyte);
  return match ? Number(match[1]) : null;
}

/** Samples per UPDATE (ADR 033): one jsonb parameter each, so no bind-parameter limit applies. */
export const SAMPLE_CHUNK = 500;
/** Ids per `in (…)` list: far under PostgreSQL's 65,535 bind parameters. */
const ID_CHUNK = 5_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Stores results on a sample inside the caller's transaction (the audit triggers record each
 * changed column with the transaction's actor): see applyLabResultsMany.
 */
export async function applyLabResults(
  tx: Queryable,
  probeId: number,
  results: LabResult[],
  source: 'hl7' | 'import' | 'hand',
): Promise<void> {
  await applyLabResultsMany(tx, [{ probeId, results }], source);
}

/**
 * Stores the results of many samples inside the caller's transaction, in a few statements
 * whatever their number (ADR 033): the values, their qualifiers, `results_source`, the
 * laboratory's ranges (merged over the ones already kept) and comments, `results_at`, status →
 * received, version + 1; the drug concentrations; then the safety rules. A drug concentration's
 * hours and date of analysis go to `concentration_hours` / `concentration_date_of_analysis` (the
 * sample has one of each). Throws 422 for a medicine a sample is not tested for (or named twice
 * for one sample), 404 for an unknown sample. Samples are locked in id order first, so two
 * writers of overlapping samples wait for each other instead of deadlocking.
 */
export async function applyLabResultsMany(
  tx: Queryable,
  samples: readonly SampleResults[],
  source: 'hl7' | 'import' | 'hand',
): Promise<void> {
  if (samples.length === 0) return;
  const concentrations: { p: number; m: number; v: number }[] = [];
  const docs = samples.map(({ probeId, results, comments }) => {
    const doc: Record<string, unknown> = { id: probeId };
    const ranges: Record<string, LabRange> = {};
    const comparators: Record<string, ResultComparator> = {};
    const named: number[] = [];
    for (const result of results) {
      const medicineId = medicineIdOf(result.analyte);
      if (medicineId === null) {
        doc[result.analyte] = result.value;
      } else {
        named.push(medicineId);
        concentrations.push({ p: probeId, m: medicineId, v: result.value });
        if (result.hours !== null) doc.hours = result.hours;
        if (result.dateOfAnalysis !== null) doc.date = result.dateOfAnalysis;
      }
      if (result.labRange) ranges[result.analyte] = result.labRange;
      if (result.comparator) comparators[result.analyte] = result.comparator;
    }
    // A medicine named twice for one sample: which value would win?
    if (new Set(named).size < named.length) throw invalid({ analyte: ['invalid'] });
    doc.stores = results.length > 0;
    doc.analytes = results.map((result) => result.analyte);
    if (Object.keys(ranges).length > 0) doc.ranges = ranges;
    doc.comparators = comparators;
    if (comments) {
      doc.comments = {
        ...(comments.sample !== null ? { sample: comments.sample } : {}),
        results: comments.results,
      };
    }
    return doc;
  });
  const ids = [...new Set(samples.map((sample) => sample.probeId))].sort((a, b) => a - b);
  if (ids.length < samples.length) throw invalid({ probe_id: ['invalid'] });

  // Locked in id order when there are several; one UPDATE of one row needs no such care.
  if (ids.length > 1) {
    for (const part of chunks(ids, ID_CHUNK)) {
      await tx.execute(
        sql`select id from probes where id in (${sql.join(
          part.map((id) => sql`${id}`),
          sql`, `,
        )}) order by id for update`,
      );
    }
  }

  // The concentrations first: a medicine a sample is not tested for updates no row, which is
  // told by the count (the caller's transaction then rolls everything back).
  for (const part of chunks(concentrations, SAMPLE_CHUNK * 20)) {
    const probeIds = [...new Set(part.map((value) => value.p))];
    const result = await tx.execute(sql`
      update probe_medicines pm set concentration = (e.value->>'v')::numeric
      from jsonb_array_elements(${JSON.stringify(part)}::jsonb) e
      where pm.probe_id in (${sql.join(
        probeIds.map((id) => sql`${id}`),
        sql`, `,
      )})
        and pm.probe_id = (e.value->>'p')::integer and pm.medicine_id = (e.value->>'m')::integer
      returning pm.id`);
    if ((result as { rows: unknown[] }).rows.length !== part.length) {
      throw invalid({ analyte: ['invalid'] });
    }
  }

  let updated = 0;
  for (const part of chunks(docs, SAMPLE_CHUNK)) {
    const result = await tx.execute(sql`
      update probes p set
        alt = case when d.doc ? 'alt' then (d.doc->>'alt')::numeric else p.alt end,
        ast = case when d.doc ? 'ast' then (d.doc->>'ast')::numeric else p.ast end,
        creatine = case when d.doc ? 'creatine' then (d.doc->>'creatine')::numeric else p.creatine end,
        bilirubine = case when d.doc ? 'bilirubine' then (d.doc->>'bilirubine')::numeric else p.bilirubine end,
        concentration_hours = case when d.doc ? 'hours' then (d.doc->>'hours')::numeric
          else p.concentration_hours end,
        concentration_date_of_analysis = case when d.doc ? 'date' then (d.doc->>'date')::date
          else p.concentration_date_of_analysis end,
        results_at = case when (d.doc->>'stores')::boolean then now() else p.results_at end,
        status = case when (d.doc->>'stores')::boolean then 'received' else p.status end,
        results_source = case when (d.doc->>'stores')::boolean then ${source} else p.results_source end,
        lab_ranges = case when d.doc ? 'ranges'
          then coalesce(p.lab_ranges, '{}'::jsonb) || (d.doc->'ranges') else p.lab_ranges end,
        result_comparators = nullif(
          (coalesce(p.result_comparators, '{}'::jsonb)
            - array(select jsonb_array_elements_text(d.doc->'analytes')))
          || (d.doc->'comparators'),
          '{}'::jsonb),
        lab_comments = case when d.doc ? 'comments' then jsonb_build_object(
            'sample', coalesce(d.doc->'comments'->'sample', p.lab_comments->'sample', 'null'::jsonb),
            'results', (coalesce(p.lab_comments->'results', '{}'::jsonb)
              - array(select jsonb_array_elements_text(d.doc->'analytes')))
              || coalesce(d.doc->'comments'->'results', '{}'::jsonb))
          else p.lab_comments end,
        -- The batch's own bump, as nextVersion (lib/versions.ts) writes it elsewhere (ADR 046).
        version = p.version + 1,
        updated_at = now()
      from (select value as doc from jsonb_array_elements(${JSON.stringify(part)}::jsonb)) d
      where p.id in (${sql.join(
        part.map((doc) => sql`${doc.id as number}`),
        sql`, `,
      )}) and p.id = (d.doc->>'id')::integer
      returning p.id`);
    updated += (result as { rows: unknown[] }).rows.length;
  }
  if (updated !== samples.length) throw notFound();

  await evaluateProbesAlerts(tx, ids);
}
