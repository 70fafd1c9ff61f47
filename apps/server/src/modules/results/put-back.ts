import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { importProbeStates, importResultValues, probeMedicines, probes } from '../../db/schema.js';
import { evaluateProbesAlerts } from '../safety-alerts/index.js';
import { medicineIdOf } from './apply.js';
import { nextVersion } from '../../lib/versions.js';

type Biochemistry = 'alt' | 'ast' | 'creatine' | 'bilirubine';

/**
 * The columns of a sample a results import changes besides the values, each paired with its
 * two copies in `import_probe_states` (migration 0018): before the batch, and as it left them. The import
 * copies them (imports/results-import.ts); flush and restore put them back (below).
 */
export const IMPORT_STATE_COLUMNS = [
  ['concentration_hours', 'previous_concentration_hours'],
  ['concentration_date_of_analysis', 'previous_concentration_date_of_analysis'],
  ['results_source', 'previous_results_source'],
  ['lab_ranges', 'previous_lab_ranges'],
  ['results_at', 'previous_results_at'],
  ['status', 'previous_status'],
] as const;

/**
 * Puts the results of these batches back on their samples: the values and sample states as
 * they were before (`previous`, a flush: newest first, so several batches unwind to what was
 * there before the first) or as the batches left them (`imported`, a restore: oldest first).
 * Then the safety rules run as for any stored result: a rule that fires opens or refreshes an
 * alert; an open alert whose values went away stays until a doctor acknowledges it
 * (safety-alerts/safety.ts). Answers how many values were put back.
 */
export async function putBackResults(
  tx: Transaction,
  batchIds: number[],
  side: 'previous' | 'imported',
): Promise<number> {
  const order = side === 'previous' ? desc : asc;
  const values = await tx
    .select()
    .from(importResultValues)
    .where(inArray(importResultValues.import_batch_id, batchIds))
    .orderBy(order(importResultValues.id));
  for (const v of values)
    await putValue(tx, v.probe_id, v.analyte, side === 'previous' ? v.previous_value : v.value);
  const states = await tx
    .select({ id: importProbeStates.id })
    .from(importProbeStates)
    .where(inArray(importProbeStates.import_batch_id, batchIds))
    .orderBy(order(importProbeStates.id));
  for (const state of states) await putProbeState(tx, state.id, side);
  for (const probeId of new Set(values.map((v) => v.probe_id)))
    await evaluateProbesAlerts(tx, [probeId]);
  return values.length;
}

/**
 * Used by flush and restore: puts a sample's state before a batch ('previous') or as the batch
 * left it ('imported') back on it, from its `import_probe_states` row. The version moves on, so
 * an edit opened before the flush or restore is refused instead of overwriting it.
 */
async function putProbeState(
  tx: Transaction,
  stateId: number,
  side: 'previous' | 'imported',
): Promise<void> {
  await tx
    .update(probes)
    .set({
      ...(Object.fromEntries(
        IMPORT_STATE_COLUMNS.map(([column, previous]) => [
          column,
          sql`${importProbeStates[side === 'previous' ? previous : column]}`,
        ]),
      ) as Partial<typeof probes.$inferInsert>),
      version: nextVersion(probes.version),
      updated_at: sql`now()`,
    })
    .from(importProbeStates)
    .where(and(eq(importProbeStates.id, stateId), eq(probes.id, importProbeStates.probe_id)));
}

/** Used by flush and restore: puts a remembered value (or the one it replaced) on the sample. */
async function putValue(
  tx: Transaction,
  probeId: number,
  analyte: string,
  value: number | null,
): Promise<void> {
  const medicineId = medicineIdOf(analyte);
  if (medicineId === null) {
    await tx
      .update(probes)
      .set({ [analyte as Biochemistry]: value })
      .where(eq(probes.id, probeId));
  } else {
    await tx
      .update(probeMedicines)
      .set({ concentration: value })
      .where(and(eq(probeMedicines.probe_id, probeId), eq(probeMedicines.medicine_id, medicineId)));
  }
}
