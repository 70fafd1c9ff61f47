import type { UnmatchedResult } from '@portal/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { probes, unmatchedResults } from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, totalKey, pagedAnswer } from '../../lib/list-totals.js';
import type { ListTotal } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient } from '../../policies/patients.js';
import { BIOCHEMISTRY_ANALYTES, applyLabResults, medicineIdOf } from '../results/index.js';
import { labRange } from './hl7-parse.js';
import type { LabResult } from '../results/index.js';

type UnmatchedRow = typeof unmatchedResults.$inferSelect;
type Status = UnmatchedResult['status'];

function toResult(row: UnmatchedRow): UnmatchedResult {
  return {
    id: row.id,
    source: row.import_batch_id !== null ? 'import' : 'hl7',
    probe_code: row.probe_code,
    analyte: row.analyte,
    value: row.value,
    unit: row.unit,
    lab_range: row.lab_range,
    date_of_analysis: row.date_of_analysis,
    hours: row.hours,
    patient_sex: row.patient_sex,
    patient_birth_date: row.patient_birth_date,
    reason: row.reason,
    raw: row.raw,
    status: row.status,
    probe_id: row.probe_id,
    resolved_at: row.resolved_at?.toISOString() ?? null,
    discard_reason: row.discard_reason,
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

async function loadUnmatched(db: Queryable, where: SQL | undefined): Promise<UnmatchedResult[]> {
  const rows = await db.select().from(unmatchedResults).where(where);
  return rows.map(toResult);
}

/**
 * GET /api/lab/unmatched (ADR 021's list pattern; a small table, so totals are exact counts):
 * one status (open by default), newest first by default. Administrators only, by the route.
 */
export async function listUnmatched(
  db: Database,
  query: { status: Status; limit: number; page: number; order_direction: 'asc' | 'desc' },
): Promise<{ data: UnmatchedResult[] } & ListTotal> {
  const where = eq(unmatchedResults.status, query.status);
  const total = listTotal(db, {
    key: totalKey('unmatched', { status: query.status }),
    rows: () =>
      db.select({ id: unmatchedResults.id }).from(unmatchedResults).where(where).$dynamic(),
  });
  const dir = sql.raw(query.order_direction === 'asc' ? 'asc' : 'desc');
  const page = await db
    .select({ id: unmatchedResults.id })
    .from(unmatchedResults)
    .where(where)
    .orderBy(sql`${unmatchedResults.created_at} ${dir}`, sql`${unmatchedResults.id} ${dir}`)
    .limit(query.limit)
    .offset(offsetOf(query.page, query.limit));
  const ids = page.map((row) => row.id);
  const data =
    ids.length === 0
      ? []
      : inOrderOf(ids, await loadUnmatched(db, inArray(unmatchedResults.id, ids)), (r) => r.id);
  const counted = await total;
  return pagedAnswer(data, counted);
}

/**
 * The laboratory's range text as kept on the row, read as the connector reads OBX-7 (bounds for
 * the flags; an unreadable text keeps no bounds, so the study's range still applies).
 */
export function labRangeOf(text: string | null, unit: string | null): LabRange | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const range = labRange(trimmed, unit ?? '');
  return range && { ...range, unit };
}

/** The row as a result for applyLabResults: its analyte, value and the laboratory's range. */
function labResultOf(row: UnmatchedRow & { value: number }): LabResult {
  return {
    // The connector and the import write only the analytes LabResult names.
    analyte: row.analyte as LabResult['analyte'],
    value: row.value,
    labRange: labRangeOf(row.lab_range, row.unit),
    dateOfAnalysis: row.date_of_analysis,
    hours: row.hours,
  };
}

async function findUnmatched(db: Queryable, id: number): Promise<UnmatchedRow> {
  const [row] = await db.select().from(unmatchedResults).where(eq(unmatchedResults.id, id));
  if (!row) throw notFound();
  return row;
}

/** After a refused update: resolved meanwhile (`already_resolved`) or only a stale version. */
async function refusal(db: Database, id: number): Promise<never> {
  const row = await findUnmatched(db, id);
  throw conflict(row.status === 'open' ? 'conflict' : 'already_resolved');
}

/**
 * PUT /api/lab/unmatched/{id}: attaches an open result to a sample. The row becomes `matched`
 * (with the sample, its patient — so the audit trail files it under them — when and who) and
 * the value is stored on the sample by applyLabResults (source `hl7` or `import` as it came, the
 * flags and safety rules included), all in one transaction: the row's conditional update goes
 * first, so of two matches at once the second finds it resolved and changes nothing. Unknown
 * sample: 404; a deleted patient's sample: 409 `patient_deleted`; a medicine the sample is not
 * tested for: 422 (from applyLabResults).
 */
export async function matchUnmatched(
  db: Database,
  actor: Actor,
  id: number,
  body: { probe_id: number; version: number },
): Promise<UnmatchedResult> {
  const row = await findUnmatched(db, id);
  if (row.status !== 'open') throw conflict('already_resolved');
  // A row without a number (a text the laboratory sent) has nothing to store on a sample.
  const { value } = row;
  if (value === null) throw invalid({ value: ['invalid'] });
  // A laboratory code the study does not know (ADR 033) has no column on a sample to go to.
  if (!BIOCHEMISTRY_ANALYTES.includes(row.analyte as never) && medicineIdOf(row.analyte) === null) {
    throw invalid({ analyte: ['invalid'] });
  }
  const [probe] = await db
    .select({ id: probes.id, patient_id: probes.patient_id })
    .from(probes)
    .where(eq(probes.id, body.probe_id));
  if (!probe) throw notFound();
  await findChangeablePatient(db, actor, probe.patient_id);

  const updated = await inTransaction(db, actor.userId, async (tx) => {
    const [saved] = await tx
      .update(unmatchedResults)
      .set({
        status: 'matched',
        probe_id: probe.id,
        patient_id: probe.patient_id,
        resolved_at: sql`now()`,
        resolved_by: actor.userId,
        version: sql`${unmatchedResults.version} + 1`,
        updated_at: sql`now()`,
      })
      .where(openRow(id, body.version))
      .returning({ id: unmatchedResults.id });
    if (!saved) return false;
    await applyLabResults(
      tx,
      probe.id,
      [labResultOf({ ...row, value })],
      row.import_batch_id !== null ? 'import' : 'hl7',
    );
    return true;
  });
  if (!updated) return refusal(db, id);
  const [result] = await loadUnmatched(db, eq(unmatchedResults.id, id));
  if (!result) throw notFound();
  return result;
}

const openRow = (id: number, version: number) =>
  and(
    eq(unmatchedResults.id, id),
    eq(unmatchedResults.status, 'open'),
    eq(unmatchedResults.version, version),
  );

/**
 * PUT /api/lab/unmatched/{id}/discard: an open result is set aside with the reason (required),
 * when and who; audited by the trigger. Resolved already: 409 `already_resolved`.
 */
export async function discardUnmatched(
  db: Database,
  actor: Actor,
  id: number,
  body: { reason: string; version: number },
): Promise<UnmatchedResult> {
  const row = await findUnmatched(db, id);
  if (row.status !== 'open') throw conflict('already_resolved');
  const updated = await inTransaction(db, actor.userId, async (tx) => {
    const [saved] = await tx
      .update(unmatchedResults)
      .set({
        status: 'discarded',
        discard_reason: body.reason.trim(),
        resolved_at: sql`now()`,
        resolved_by: actor.userId,
        version: sql`${unmatchedResults.version} + 1`,
        updated_at: sql`now()`,
      })
      .where(openRow(id, body.version))
      .returning({ id: unmatchedResults.id });
    return saved !== undefined;
  });
  if (!updated) return refusal(db, id);
  const [result] = await loadUnmatched(db, eq(unmatchedResults.id, id));
  if (!result) throw notFound();
  return result;
}
