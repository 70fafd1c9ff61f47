import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { probeMedicines, probes } from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';
import { evaluateProbeAlerts } from '../probes/safety.js';

/*
 * Stand-in for `applyLabResults` (modules/lab/apply-results.ts, branch i12-hl7) with the same
 * signature, until that branch lands; then the results import calls the real one and this file
 * goes. Stores values, source, ranges, results_at, status received, version + 1, then the
 * safety rules — all in the caller's transaction.
 */

export type LabAnalyte = 'alt' | 'ast' | 'creatine' | 'bilirubine' | `medicine_${number}`;
export interface LabResult {
  analyte: LabAnalyte;
  value: number;
  labRange: LabRange | null;
  dateOfAnalysis: string | null;
  hours: number | null;
}

export function medicineIdOf(analyte: string): number | null {
  const match = /^medicine_([1-9][0-9]{0,8})$/.exec(analyte);
  return match ? Number(match[1]) : null;
}

export async function applyLabResults(
  tx: Queryable,
  probeId: number,
  results: LabResult[],
  source: 'hl7' | 'import' | 'hand',
): Promise<void> {
  const changes: Partial<typeof probes.$inferInsert> = {};
  const ranges: Record<string, LabRange> = {};
  const concentrations: { medicineId: number; value: number }[] = [];
  for (const result of results) {
    const medicineId = medicineIdOf(result.analyte);
    if (medicineId === null) {
      changes[result.analyte as 'alt'] = result.value;
    } else {
      concentrations.push({ medicineId, value: result.value });
      if (result.hours !== null) changes.concentration_hours = result.hours;
      if (result.dateOfAnalysis !== null)
        changes.concentration_date_of_analysis = result.dateOfAnalysis;
    }
    if (result.labRange) ranges[result.analyte] = result.labRange;
  }
  await tx
    .update(probes)
    .set({
      ...changes,
      results_at: sql`now()`,
      status: 'received' as const,
      results_source: source,
      ...(Object.keys(ranges).length > 0
        ? {
            lab_ranges: sql`coalesce(${probes.lab_ranges}, '{}'::jsonb) || ${JSON.stringify(ranges)}::jsonb`,
          }
        : {}),
      version: sql`${probes.version} + 1`,
      updated_at: sql`now()`,
    })
    .where(eq(probes.id, probeId));
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
