import type { SafetyRule } from '@portal/shared';
import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients, probes, safetyAlerts, safetyRules, visits } from '../../db/schema.js';
import { liveVisit } from '../../lib/live-visit.js';
import { enqueueNotification } from '../notifications/index.js';
import { loadReferenceRanges } from '../probes/index.js';
import { evaluateHysLaw, evaluateQtcf } from './safety-rules.js';
import type { Firing, SafetyRuleConfig } from './safety-rules.js';
import { nextVersion } from '../../lib/versions.js';

/**
 * Safety alerts (docs/product-rules.md "Safety alerts", ADR 030): evaluated inside the transaction
 * that stores a sample's results or a visit's ECG, so an alert exists exactly when the values that
 * fired it do. Free of HTTP: the laboratory import calls evaluateProbeAlerts too. Needs a
 * transaction opened by inTransaction (the audit trigger on safety_alerts reads its actor).
 *
 * A rule that fires opens an alert, or refreshes the details of the open alert of the same rule
 * and source (one open alert per rule and sample or visit, by partial unique index). A rule that
 * no longer fires leaves an open alert as it is: a raised safety signal is closed only by a
 * doctor's acknowledgement, which says why (a corrected typo, say).
 */

async function loadRules(tx: Queryable): Promise<SafetyRuleConfig[]> {
  const rows = await tx.select().from(safetyRules);
  return rows.map((row) => ({
    id: row.id as SafetyRule,
    params: row.params,
    is_enabled: row.is_enabled,
  }));
}

/** Opens or refreshes the alerts of a sample's liver values (Hy's law). */
export async function evaluateProbeAlerts(tx: Queryable, probeId: number): Promise<void> {
  await evaluateProbesAlerts(tx, [probeId]);
}

/**
 * The same for many samples at once (a laboratory message of hundreds, ADR 033): the ranges and
 * rules are read once, the samples in chunks, and only a firing rule writes.
 */
export async function evaluateProbesAlerts(
  tx: Queryable,
  probeIds: readonly number[],
): Promise<void> {
  if (probeIds.length === 0) return;
  const [ranges, rules] = await Promise.all([loadReferenceRanges(tx), loadRules(tx)]);
  for (let i = 0; i < probeIds.length; i += 5_000) {
    const rows = await tx
      .select({
        id: probes.id,
        patient_id: probes.patient_id,
        alt: probes.alt,
        ast: probes.ast,
        bilirubine: probes.bilirubine,
        sex: patients.sex,
      })
      .from(probes)
      .innerJoin(patients, eq(patients.id, probes.patient_id))
      .where(inArray(probes.id, probeIds.slice(i, i + 5_000)))
      .orderBy(asc(probes.id));
    for (const row of rows) {
      const fired = evaluateHysLaw(row, row.sex, ranges, rules);
      if (fired) await raise(tx, row.patient_id, { probe_id: row.id }, fired);
    }
  }
}

/** Opens or refreshes the alerts of a visit's ECG (QTcF above the limit or above baseline). */
export async function evaluateVisitAlerts(tx: Queryable, visitId: number): Promise<void> {
  const [visit] = await tx
    .select({
      patient_id: visits.patient_id,
      date: visits.date,
      started_at: visits.started_at,
      qtcfra: visits.qtcfra,
    })
    .from(visits)
    .where(and(eq(visits.id, visitId), liveVisit));
  if (!visit || visit.qtcfra === null) return;
  // The baseline: the patient's first live visit with an ECG before this one (by date, then
  // time). When this visit is itself the first, there is nothing to compare with.
  const [baseline] = await tx
    .select({ qtcfra: visits.qtcfra })
    .from(visits)
    .where(
      and(
        eq(visits.patient_id, visit.patient_id),
        ne(visits.id, visitId),
        liveVisit,
        isNotNull(visits.qtcfra),
        sql`(${visits.date}, ${visits.started_at}) < (${visit.date}::date, ${visit.started_at}::time)`,
      ),
    )
    .orderBy(asc(visits.date), asc(visits.started_at), asc(visits.id))
    .limit(1);
  const rules = await loadRules(tx);
  for (const fired of evaluateQtcf(visit.qtcfra, baseline?.qtcfra ?? null, rules)) {
    await raise(tx, visit.patient_id, { visit_id: visitId }, fired);
  }
}

/**
 * Inserts the alert, or refreshes the open one of the same rule and source. The refresh writes
 * only when the details changed, so saving the same values again leaves no audit noise.
 */
async function raise(
  tx: Queryable,
  patientId: number,
  source: { probe_id: number } | { visit_id: number },
  fired: Firing,
): Promise<void> {
  const byProbe = 'probe_id' in source;
  const [saved] = await tx
    .insert(safetyAlerts)
    .values({ patient_id: patientId, rule: fired.rule, details: fired.details, ...source })
    .onConflictDoUpdate({
      target: byProbe
        ? [safetyAlerts.rule, safetyAlerts.probe_id]
        : [safetyAlerts.rule, safetyAlerts.visit_id],
      targetWhere: byProbe
        ? sql`acknowledged_at is null and probe_id is not null`
        : sql`acknowledged_at is null and visit_id is not null`,
      set: {
        details: sql`excluded.details`,
        version: nextVersion(safetyAlerts.version),
        updated_at: sql`now()`,
      },
      setWhere: sql`${safetyAlerts.details} is distinct from excluded.details`,
    })
    // xmax is 0 only on a row this statement inserted: a refreshed alert is not news.
    .returning({ id: safetyAlerts.id, inserted: sql<boolean>`(xmax = 0)` });
  if (saved?.inserted) {
    // The patient's doctor and the administrators hear of a new alert (ADR 062).
    await enqueueNotification(tx, {
      type: 'safety_alert',
      alert_id: saved.id,
      patient_id: patientId,
    });
  }
}
