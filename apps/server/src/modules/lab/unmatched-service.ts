import type { MatchPreview, ReplacedValue, UnmatchedResult } from '@portal/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { inTransaction, markAuditSource } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { probeMedicines, probes, unmatchedResults } from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { inOrderOf, listTotal, totalKey, pagedAnswer } from '../../lib/list-totals.js';
import type { ListTotal } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import { claimVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import { BIOCHEMISTRY_ANALYTES, applyLabResults, medicineIdOf } from '../results/index.js';
import { labRange } from './hl7-parse.js';
import { patientMismatch } from './patient-check.js';
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
    patient_firstname: row.patient_firstname,
    patient_surname: row.patient_surname,
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

/** A name compared as people read it: case, spacing and Polish letters' marks aside. */
const nameKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The values of the sample the row would overwrite: its analyte's (and, for a drug level, the
 * hours since the dose) where the sample holds a different one. Inside a transaction it locks
 * the sample first, so that nothing is written between the look and the write.
 */
async function replacedValues(
  db: Queryable,
  row: UnmatchedRow,
  probeId: number,
  lock: boolean,
): Promise<ReplacedValue[]> {
  const query = db
    .select({
      alt: probes.alt,
      ast: probes.ast,
      creatine: probes.creatine,
      bilirubine: probes.bilirubine,
      hours: probes.concentration_hours,
    })
    .from(probes)
    .where(eq(probes.id, probeId))
    .$dynamic();
  const [probe] = await (lock ? query.for('update') : query);
  if (!probe || row.value === null) return [];
  const replaces: ReplacedValue[] = [];
  const differs = (analyte: string, current: number | null, incoming: number | null) => {
    if (current !== null && incoming !== null && current !== incoming) {
      replaces.push({ analyte, current, incoming });
    }
  };
  const medicineId = medicineIdOf(row.analyte);
  if (medicineId === null) {
    const analyte = row.analyte as (typeof BIOCHEMISTRY_ANALYTES)[number];
    if (BIOCHEMISTRY_ANALYTES.includes(analyte)) differs(analyte, probe[analyte], row.value);
    return replaces;
  }
  const [medicine] = await db
    .select({ concentration: probeMedicines.concentration })
    .from(probeMedicines)
    .where(and(eq(probeMedicines.probe_id, probeId), eq(probeMedicines.medicine_id, medicineId)));
  differs(row.analyte, medicine?.concentration ?? null, row.value);
  differs('hours', probe.hours, row.hours);
  return replaces;
}

/**
 * GET /api/lab/unmatched/{id}/preview?probe_id=: the laboratory's patient beside the sample's,
 * where they disagree (the connector's rule for sex and birth date; names as people read them,
 * compared only where sent) and the values a match would overwrite. 404 for an unknown row or
 * sample, 409 `already_resolved` for a row no longer open.
 */
export async function previewMatch(
  db: Database,
  actor: Actor,
  id: number,
  probeId: number,
): Promise<MatchPreview> {
  const row = await findUnmatched(db, id);
  if (row.status !== 'open') throw conflict('already_resolved');
  const [probe] = await db
    .select({ id: probes.id, code: probes.code, patient_id: probes.patient_id })
    .from(probes)
    .where(eq(probes.id, probeId));
  if (!probe) throw notFound();
  const patient = await findReachablePatient(db, actor, probe.patient_id);
  const sent = {
    sex: row.patient_sex,
    birth_date: row.patient_birth_date,
    firstname: row.patient_firstname,
    surname: row.patient_surname,
  };
  const mismatches: MatchPreview['mismatches'] = [];
  // The connector's rule, one field at a time (it stops at the first).
  const sex = row.patient_sex === 'M' || row.patient_sex === 'K' ? row.patient_sex : null;
  if (patientMismatch({ sex, birthDate: null }, patient)) mismatches.push('sex');
  if (patientMismatch({ sex: null, birthDate: row.patient_birth_date }, patient)) {
    mismatches.push('birth_date');
  }
  const names: [string | null, string][] = [
    [sent.firstname, patient.firstname],
    [sent.surname, patient.surname],
  ];
  if (names.some(([given, own]) => given !== null && nameKey(given) !== nameKey(own))) {
    mismatches.push('name');
  }
  return {
    probe: { id: probe.id, code: probe.code },
    lab_patient: sent,
    sample_patient: {
      sex: patient.sex,
      birth_date: patient.birth_date,
      firstname: patient.firstname,
      surname: patient.surname,
    },
    mismatches,
    replaces: await replacedValues(db, row, probe.id, false),
  };
}

/**
 * PUT /api/lab/unmatched/{id}: attaches an open result to a sample. The row becomes `matched`
 * (with the sample, its patient — so the audit trail files it under them — when and who) and
 * the value is stored on the sample by applyLabResults (source `hl7` or `import` as it came, the
 * flags and safety rules included), all in one transaction: the row's conditional update goes
 * first, so of two matches at once the second finds it resolved and changes nothing. A value the
 * sample already holds (a different one) is overwritten only with `replace: true`; otherwise 409
 * `would_replace` with the values, and nothing changes (the sample is locked between the look
 * and the write). Unknown
 * sample: 404; a deleted patient's sample: 409 `patient_deleted`; a medicine the sample is not
 * tested for: 422 (from applyLabResults).
 */
export async function matchUnmatched(
  db: Database,
  actor: Actor,
  id: number,
  body: { probe_id: number; version?: number | undefined; replace?: boolean | undefined },
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

  await inTransaction(db, actor.userId, async (tx) => {
    await markAuditSource(tx, 'manual_match');
    await claimVersion(tx, unmatchedResults, id, body.version, {
      set: {
        status: 'matched',
        probe_id: probe.id,
        patient_id: probe.patient_id,
        resolved_at: sql`now()`,
        resolved_by: actor.userId,
        updated_at: sql`now()`,
      },
      state: stillOpen,
    });
    // A value the sample holds is overwritten only when the administrator said so (ADR 032).
    const replaces = await replacedValues(tx, row, probe.id, true);
    if (replaces.length > 0 && body.replace !== true) {
      throw new AppError(409, 'would_replace', { replaces });
    }
    await applyLabResults(
      tx,
      probe.id,
      [labResultOf({ ...row, value })],
      row.import_batch_id !== null ? 'import' : 'hl7',
    );
  });
  const [result] = await loadUnmatched(db, eq(unmatchedResults.id, id));
  if (!result) throw notFound();
  return result;
}

/** Matched or discarded meanwhile: 409 `already_resolved`; a stale version 409 `conflict`. */
const stillOpen = { where: eq(unmatchedResults.status, 'open'), refused: 'already_resolved' };

/**
 * PUT /api/lab/unmatched/{id}/discard: an open result is set aside with the reason (required),
 * when and who; audited by the trigger. Resolved already: 409 `already_resolved`.
 */
export async function discardUnmatched(
  db: Database,
  actor: Actor,
  id: number,
  body: { reason: string; version?: number | undefined },
): Promise<UnmatchedResult> {
  const row = await findUnmatched(db, id);
  if (row.status !== 'open') throw conflict('already_resolved');
  await inTransaction(db, actor.userId, async (tx) => {
    await claimVersion(tx, unmatchedResults, id, body.version, {
      set: {
        status: 'discarded',
        discard_reason: body.reason.trim(),
        resolved_at: sql`now()`,
        resolved_by: actor.userId,
        updated_at: sql`now()`,
      },
      state: stillOpen,
    });
  });
  const [result] = await loadUnmatched(db, eq(unmatchedResults.id, id));
  if (!result) throw notFound();
  return result;
}
