import type { AlertListQuery, SafetyAlert, SafetyRule } from '@portal/shared';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { patients, safetyAlerts } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, totalKey, pagedAnswer } from '../../lib/list-totals.js';
import type { ListTotal } from '../../lib/list-totals.js';
import { claimVersion } from '../../lib/versions.js';
import { offsetOf } from '../../lib/listing.js';
import type { Actor } from '../../plugins/policy.js';
import { patientScope } from '../../policies/patients.js';
import { findReachableAlert } from '../../policies/probes.js';
import { reachUnit, unitScope } from '../../policies/units.js';
import { patientSearch } from '../patients/index.js';
import { userNameSql } from '../probes/index.js';

/**
 * Alerts matching `where`, in its API shape (docs/api-conventions.md) with the patient's and
 * acknowledger's names.
 */
async function loadAlerts(db: Queryable, where: SQL | undefined): Promise<SafetyAlert[]> {
  const rows = await db
    .select({
      alert: safetyAlerts,
      firstname: patients.firstname,
      surname: patients.surname,
      acknowledged_by_name: sql<
        string | null
      >`case when ${safetyAlerts.acknowledged_by} is null then null else ${userNameSql(safetyAlerts.acknowledged_by)} end`,
    })
    .from(safetyAlerts)
    .innerJoin(patients, eq(patients.id, safetyAlerts.patient_id))
    .where(where);
  return rows.map(({ alert, firstname, surname, acknowledged_by_name }) => ({
    id: alert.id,
    patient_id: alert.patient_id,
    patient: { firstname, surname },
    rule: alert.rule as SafetyRule,
    details: alert.details,
    created_at: alert.created_at.toISOString(),
    probe_id: alert.probe_id,
    visit_id: alert.visit_id,
    acknowledged_at: alert.acknowledged_at?.toISOString() ?? null,
    acknowledged_by: alert.acknowledged_by,
    acknowledged_by_name,
    acknowledge_comment: alert.acknowledge_comment,
    version: alert.version,
  }));
}

/**
 * GET /api/alerts (ADR 021's list pattern; the table stays small, so totals are exact counts):
 * open or acknowledged, some patients, a search on the patient; newest first by default. A
 * doctor sees the own unit's patients only.
 */
export async function listAlerts(
  db: Database,
  actor: Actor,
  query: AlertListQuery,
): Promise<{ data: SafetyAlert[] } & ListTotal> {
  const search = query.search?.trim() || undefined;
  // Another unit (or none such) answers 404, as the visits list does.
  if (query.unit_id !== undefined) await reachUnit(db, actor, query.unit_id);
  const where = and(
    patientScope(actor),
    // Active patients' alerts, in the unit named: as the dashboard counts them (ADR 060).
    isNull(patients.deleted_at),
    query.unit_id === undefined ? undefined : eq(patients.unit_id, query.unit_id),
    query.status === 'open' ? isNull(safetyAlerts.acknowledged_at) : undefined,
    query.status === 'acknowledged' ? isNotNull(safetyAlerts.acknowledged_at) : undefined,
    query.patientIds?.length ? inArray(safetyAlerts.patient_id, query.patientIds) : undefined,
    patientSearch(search, actor),
  );
  const scope = unitScope(actor);
  const total = listTotal(db, {
    key: totalKey('alerts', {
      scope: scope ?? 'all',
      status: query.status,
      unit: query.unit_id,
      patientIds: query.patientIds?.join(','),
      search,
    }),
    rows: () =>
      db
        .select({ id: safetyAlerts.id })
        .from(safetyAlerts)
        .innerJoin(patients, eq(patients.id, safetyAlerts.patient_id))
        .where(where)
        .$dynamic(),
  });
  const dir = sql.raw(query.order_direction === 'asc' ? 'asc' : 'desc');
  // A deferred join: the page's ids first, then their rows with names.
  const page = await db
    .select({ id: safetyAlerts.id })
    .from(safetyAlerts)
    .innerJoin(patients, eq(patients.id, safetyAlerts.patient_id))
    .where(where)
    .orderBy(sql`${safetyAlerts.created_at} ${dir}`, sql`${safetyAlerts.id} ${dir}`)
    .limit(query.limit)
    .offset(offsetOf(query.page, query.limit));
  const ids = page.map((row) => row.id);
  const data =
    ids.length === 0
      ? []
      : inOrderOf(ids, await loadAlerts(db, inArray(safetyAlerts.id, ids)), (row) => row.id);
  const counted = await total;
  return pagedAnswer(data, counted);
}

/**
 * Acknowledges an open alert (docs/product-rules.md "Safety alerts"): when, who and why, audited by
 * the trigger on safety_alerts. Another unit's alert: 404; already acknowledged: 409
 * `already_acknowledged`; a stale `version`: 409 `conflict`. A deleted patient's alert may still be
 * acknowledged: a safety signal must not stay open because the patient left the study.
 */
export async function acknowledgeAlert(
  db: Database,
  actor: Actor,
  id: number,
  body: { comment?: string | null | undefined; version?: number | undefined },
): Promise<SafetyAlert> {
  const alert = await findReachableAlert(db, actor, id);
  if (alert.acknowledged_at) throw conflict('already_acknowledged');
  const comment = body.comment?.trim() || null;
  // Someone acknowledged it meanwhile (409 already_acknowledged), or changed it since it was
  // read (409 conflict).
  await inTransaction(db, actor.userId, (tx) =>
    claimVersion(tx, safetyAlerts, id, body.version, {
      set: {
        acknowledged_at: sql`now()`,
        acknowledged_by: actor.userId,
        acknowledge_comment: comment,
        updated_at: sql`now()`,
      },
      state: { where: isNull(safetyAlerts.acknowledged_at), refused: 'already_acknowledged' },
    }),
  );
  const [saved] = await loadAlerts(db, eq(safetyAlerts.id, id));
  if (!saved) throw notFound();
  return saved;
}
