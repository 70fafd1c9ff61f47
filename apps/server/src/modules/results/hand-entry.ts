import { warsawToday } from '@portal/shared';
import type { Probe, ProbeResultsBody } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { probeMedicines, probes } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { applyReason } from '../../lib/reasons.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient } from '../../policies/patients.js';
import { findReachableProbe } from '../../policies/probes.js';
import { loadProbe } from '../probes/index.js';
import { evaluateProbeAlerts } from '../safety-alerts/index.js';

/** How far a client's clock may run ahead of the server's (ADR 037). */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * A hand-entered day of analysis lies in the future when it is after today in Warsaw (ADR 012),
 * today being read a few minutes ahead: just before midnight, a client whose clock already
 * shows the next day is not refused (ADR 037).
 */
export function isFutureDay(day: string, now: Date = new Date()): boolean {
  return day > warsawToday(new Date(now.getTime() + CLOCK_SKEW_MS));
}

/**
 * Results entered by hand (docs/product-rules.md "Sample results", ADR 030). What the body leaves
 * out stays as it was; null clears a value. Storing any measured value stamps `results_at` and
 * moves the sample to `received`; a body that only clears keeps both. A concentration must name one
 * of the sample's medicines (422 on `concentrations_results.concentrations`); the day of analysis
 * may
 * not lie in the future (422 `future_date`, ADR 037). A stale `version` answers
 * 409 `conflict`; a deleted patient's sample is read-only (409 `patient_deleted`). Everything,
 * the safety rules included, happens in one transaction, and the audit triggers on probes and
 * probe_medicines record each changed column with the old and the new value.
 */
export async function saveProbeResults(
  db: Database,
  actor: Actor,
  id: number,
  body: ProbeResultsBody,
): Promise<Probe> {
  const probe = await findReachableProbe(db, actor, id);
  await findChangeablePatient(db, actor, probe.patient_id);

  const biochemistry = body.biochemistry_results ?? {};
  const concentrations = body.concentrations_results;
  if (concentrations?.date_of_analysis && isFutureDay(concentrations.date_of_analysis)) {
    throw invalid({ 'concentrations_results.date_of_analysis': ['future_date'] });
  }
  const values = concentrations?.concentrations ?? [];
  if (values.length > 0) {
    const own = await db
      .select({ medicine_id: probeMedicines.medicine_id })
      .from(probeMedicines)
      .where(eq(probeMedicines.probe_id, id));
    const allowed = new Set(own.map((row) => row.medicine_id));
    const named = values.map((value) => value.medicine_id);
    // An unknown medicine, or one named twice (which value would win?), changes nothing.
    if (
      named.some((medicineId) => !allowed.has(medicineId)) ||
      new Set(named).size < named.length
    ) {
      throw invalid({ 'concentrations_results.concentrations': ['invalid'] });
    }
  }

  const measured = [
    biochemistry.alt,
    biochemistry.ast,
    biochemistry.creatine,
    biochemistry.bilirubine,
    ...values.map((value) => value.value),
  ];
  const storesResult = measured.some((value) => value !== undefined && value !== null);

  const changes: Partial<typeof probes.$inferInsert> = {};
  for (const analyte of ['alt', 'ast', 'creatine', 'bilirubine'] as const) {
    if (biochemistry[analyte] !== undefined) changes[analyte] = biochemistry[analyte];
  }
  if (concentrations?.hours !== undefined) changes.concentration_hours = concentrations.hours;
  if (concentrations?.date_of_analysis !== undefined) {
    changes.concentration_date_of_analysis = concentrations.date_of_analysis;
  }

  // A value typed by hand is a plain number: the laboratory's "<" or ">" of it no longer holds.
  const retyped = [
    ...(['alt', 'ast', 'creatine', 'bilirubine'] as const).filter(
      (analyte) => biochemistry[analyte] !== undefined,
    ),
    ...values.map((value) => `medicine_${value.medicine_id}`),
  ];
  await inTransaction(db, actor.userId, async (tx) => {
    // A sample with results holds entered clinical data: changed only with a reason (ADR 048),
    // decided on the row locked for this write.
    const [stored] = await tx
      .select({ resultsAt: probes.results_at })
      .from(probes)
      .where(eq(probes.id, id))
      .for('update');
    await applyReason(tx, !!stored?.resultsAt, body.reason);
    // Samples are never deleted: a refused claim means someone saved since it was read.
    await claimVersion(tx, probes, id, body.version, {
      set: {
        ...changes,
        ...(retyped.length > 0
          ? {
              result_comparators: sql`nullif(coalesce(${probes.result_comparators}, '{}'::jsonb) - array[${sql.join(
                retyped.map((key) => sql`${key}`),
                sql`, `,
              )}]::text[], '{}'::jsonb)`,
            }
          : {}),
        ...(storesResult
          ? { results_at: sql`now()`, status: 'received' as const, results_source: 'hand' as const }
          : {}),
        updated_at: sql`now()`,
      },
    });
    for (const value of values) {
      await tx
        .update(probeMedicines)
        .set({ concentration: value.value })
        .where(
          and(eq(probeMedicines.probe_id, id), eq(probeMedicines.medicine_id, value.medicine_id)),
        );
    }
    await evaluateProbeAlerts(tx, id);
  });
  const saved = await loadProbe(db, id);
  if (!saved) throw notFound();
  return saved;
}
