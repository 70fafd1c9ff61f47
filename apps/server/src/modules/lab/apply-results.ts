import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { probeMedicines, probes } from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { evaluateProbeAlerts } from '../probes/safety.js';

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
  /** The laboratory's own range, kept in `probes.lab_ranges` and preferred for the flags. */
  labRange: LabRange | null;
  /** YYYY-MM-DD. */
  dateOfAnalysis: string | null;
  /** Drug concentrations: hours since the last dose. */
  hours: number | null;
}

/** `medicine_12` → 12; anything else → null. */
export function medicineIdOf(analyte: string): number | null {
  const match = /^medicine_([1-9][0-9]{0,8})$/.exec(analyte);
  return match ? Number(match[1]) : null;
}

/**
 * Stores results on a sample inside the caller's transaction (the audit triggers record each
 * changed column with the transaction's actor): the values, `results_source`, the laboratory's
 * ranges (merged over the ones already kept), `results_at`, status → received, version + 1; then
 * the safety rules (evaluateProbeAlerts). A drug concentration's hours and date of analysis go to
 * `concentration_hours` / `concentration_date_of_analysis` (the sample has one of each). Throws
 * 422 for a medicine the sample is not tested for (or named twice), 404 for an unknown sample.
 */
export async function applyLabResults(
  tx: Queryable,
  probeId: number,
  results: LabResult[],
  source: 'hl7' | 'import' | 'hand',
): Promise<void> {
  const concentrations: { medicineId: number; value: number }[] = [];
  const changes: Partial<typeof probes.$inferInsert> = {};
  const ranges: Record<string, LabRange> = {};
  for (const result of results) {
    const medicineId = medicineIdOf(result.analyte);
    if (medicineId === null) {
      changes[result.analyte as BiochemistryAnalyte] = result.value;
    } else {
      concentrations.push({ medicineId, value: result.value });
      if (result.hours !== null) changes.concentration_hours = result.hours;
      if (result.dateOfAnalysis !== null) {
        changes.concentration_date_of_analysis = result.dateOfAnalysis;
      }
    }
    if (result.labRange) ranges[result.analyte] = result.labRange;
  }

  if (concentrations.length > 0) {
    const own = await tx
      .select({ medicine_id: probeMedicines.medicine_id })
      .from(probeMedicines)
      .where(eq(probeMedicines.probe_id, probeId));
    const allowed = new Set(own.map((row) => row.medicine_id));
    const named = concentrations.map((value) => value.medicineId);
    // An unknown medicine, or one named twice (which value would win?), changes nothing.
    if (named.some((id) => !allowed.has(id)) || new Set(named).size < named.length) {
      throw invalid({ analyte: ['invalid'] });
    }
  }

  const stores = results.length > 0;
  const [row] = await tx
    .update(probes)
    .set({
      ...changes,
      ...(stores
        ? { results_at: sql`now()`, status: 'received' as const, results_source: source }
        : {}),
      ...(Object.keys(ranges).length > 0
        ? {
            lab_ranges: sql`coalesce(${probes.lab_ranges}, '{}'::jsonb) || ${JSON.stringify(ranges)}::jsonb`,
          }
        : {}),
      version: sql`${probes.version} + 1`,
      updated_at: sql`now()`,
    })
    .where(eq(probes.id, probeId))
    .returning({ id: probes.id });
  if (!row) throw notFound();
  for (const value of concentrations) {
    await tx
      .update(probeMedicines)
      .set({ concentration: value.value })
      .where(
        and(eq(probeMedicines.probe_id, probeId), eq(probeMedicines.medicine_id, value.medicineId)),
      );
  }
  await evaluateProbeAlerts(tx, probeId);
}
