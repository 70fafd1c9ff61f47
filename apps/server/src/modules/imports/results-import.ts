import { RESULT_PLAUSIBLE_MAX } from '@portal/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import {
  importProbeStates,
  importResultValues,
  probeMedicines,
  probes,
  unmatchedResults,
} from '../../db/schema.js';
import type { LabRange } from '../../db/schema.js';
import {
  IMPORT_STATE_COLUMNS as STATE_COLUMNS,
  applyLabResults,
  medicineIdOf,
} from '../results/index.js';
import type { LabAnalyte, LabResult } from '../results/index.js';
import { patientMismatch, samplesByCode, sexFromText } from '../lab/index.js';
import type { PatientMismatch, SampleOfPatient, SentPatient } from '../lab/index.js';
import { dateCell, isBlank, numberCell, textCell } from './cells.js';
import { rowError } from './errors.js';
import type { ImportRow } from './read/types.js';

const CHUNK = 1000;
const BIOCHEMISTRY = ['alt', 'ast', 'creatine', 'bilirubine'] as const;
type Biochemistry = (typeof BIOCHEMISTRY)[number];

/** The units each result may come in (the same as the HL7 connector's); blank means these. */
const UNITS: Record<Biochemistry | 'medicine', readonly string[]> = {
  alt: ['u/l', 'iu/l'],
  ast: ['u/l', 'iu/l'],
  creatine: ['mg/dl'],
  bilirubine: ['mg/dl'],
  medicine: ['ng/ml'],
};

export interface PreparedResult {
  row: ImportRow;
  probeCode: string;
  result: LabResult;
  unit: string | null;
  /** The optional `patient_sex` / `patient_birth_date`, compared with the sample's patient. */
  sent: SentPatient;
}

/** `alt`, …, a medicine's id (`12`) or `medicine_12` → the stored analyte; null when unknown. */
function analyteOf(value: ImportRow['values'][string] | undefined): LabAnalyte | null {
  const text = textCell(value)?.toLowerCase() ?? '';
  if ((BIOCHEMISTRY as readonly string[]).includes(text)) return text as Biochemistry;
  const id = /^\d+$/.test(text) ? Number(text) : medicineIdOf(text);
  return id && id <= 2_147_483_647 ? `medicine_${id}` : null;
}

/** "0-40", "0 - 40 U/l", "<5": the laboratory's range, kept as text with its bounds. */
function labRangeOf(text: string): LabRange {
  const between = /^\s*([\d.,]+)\s*[-–]\s*([\d.,]+)\s*(.*)$/.exec(text);
  const below = /^\s*[<≤]\s*([\d.,]+)\s*(.*)$/.exec(text);
  const num = (s: string) => Number(s.replace(',', '.'));
  if (between) {
    return { text, min: num(between[1]!), max: num(between[2]!), unit: between[3]?.trim() || null };
  }
  if (below) return { text, min: null, max: num(below[1]!), unit: below[2]?.trim() || null };
  return { text, min: null, max: null, unit: null };
}

/** A measured number: finite, ≥ 0, at most the plausible maximum; else the error code. */
function measured(value: ImportRow['values'][string] | undefined, max: number): number | string {
  const n = numberCell(value);
  if (n === null) return 'required';
  if (typeof n !== 'number' || !Number.isFinite(n)) return 'invalid_number';
  if (n < 0) return 'negative_value';
  if (n > max) return 'implausible_value';
  return n;
}

/** Checks each row like the HL7 connector checks an OBX segment; lists every error. */
export function prepareResults(
  rows: ImportRow[],
  today: string,
): {
  prepared: PreparedResult[];
  errors: string[];
} {
  const errors: string[] = [];
  const prepared: PreparedResult[] = [];
  for (const row of rows) {
    const v = row.values;
    const rowErrors: [string, string][] = [];
    const probeCode = textCell(v.probe_code);
    if (!probeCode) rowErrors.push(['probe_code', 'required']);
    else if (probeCode.length > 50) rowErrors.push(['probe_code', 'too_long']);
    const analyte = analyteOf(v.analyte);
    if (!analyte) rowErrors.push(['analyte', isBlank(v.analyte) ? 'required' : 'invalid']);
    const kind = analyte && medicineIdOf(analyte) !== null ? 'medicine' : (analyte as Biochemistry);
    const value = measured(
      v.value,
      kind === 'medicine'
        ? RESULT_PLAUSIBLE_MAX.concentration
        : RESULT_PLAUSIBLE_MAX[kind ?? 'alt'],
    );
    if (typeof value === 'string') rowErrors.push(['value', value]);
    const unit = textCell(v.unit);
    if (unit && kind && !UNITS[kind].includes(unit.toLowerCase().replace(/\s/g, '')))
      rowErrors.push(['unit', 'invalid']);
    const date = dateCell(v.date_of_analysis);
    if (date === undefined) rowErrors.push(['date_of_analysis', 'invalid_date']);
    else if (date !== null && date > today) rowErrors.push(['date_of_analysis', 'future_date']);
    let hours: number | null = null;
    if (!isBlank(v.hours)) {
      const h = measured(v.hours, RESULT_PLAUSIBLE_MAX.hours);
      if (typeof h === 'string') rowErrors.push(['hours', h]);
      else hours = h;
    }
    const range = textCell(v.lab_range);
    if (range && range.length > 200) rowErrors.push(['lab_range', 'too_long']);
    const sex = sexFromText(textCell(v.patient_sex));
    if (sex === undefined) rowErrors.push(['patient_sex', 'invalid']);
    const birthDate = dateCell(v.patient_birth_date);
    if (birthDate === undefined) rowErrors.push(['patient_birth_date', 'invalid_date']);
    for (const [column, code] of rowErrors) errors.push(rowError(row.file, row.row, column, code));
    if (rowErrors.length || !probeCode || !analyte || typeof value === 'string') continue;
    prepared.push({
      row,
      probeCode,
      unit,
      sent: { sex: sex ?? null, birthDate: birthDate ?? null },
      result: {
        analyte,
        value,
        labRange: range ? labRangeOf(range) : null,
        dateOfAnalysis: date ?? null,
        hours,
      },
    });
  }
  return { prepared, errors };
}

/** A sample the file names, with its patient's sex and birth date (the patient check). */
type ProbeRow = SampleOfPatient;

/** Why a row is not attached: no sample with its code, or the patient check (as the connector). */
function unmatchedReason(
  p: PreparedResult,
  probe: ProbeRow | undefined,
): 'no_probe' | PatientMismatch | null {
  return probe ? patientMismatch(p.sent, probe) : 'no_probe';
}

/**
 * Second pass, against the database: the samples the codes name, and each concentration's
 * medicine must be one the sample is tested for (else the row is refused; a code that names
 * no sample, or a sample whose patient disagrees with the row's sex or birth date, is not an
 * error: the result waits among the unmatched results).
 */
export async function checkResultsAgainstSamples(
  db: Database,
  prepared: PreparedResult[],
): Promise<{ probesByCode: Map<string, ProbeRow>; errors: string[] }> {
  const codes = [...new Set(prepared.map((p) => p.probeCode))];
  const probesByCode = await samplesByCode(db, codes);
  const ids = [...probesByCode.values()].map((p) => p.id);
  const tested = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .select({ probe_id: probeMedicines.probe_id, medicine_id: probeMedicines.medicine_id })
      .from(probeMedicines)
      .where(inArray(probeMedicines.probe_id, ids.slice(i, i + CHUNK)));
    for (const row of rows) tested.add(`${row.probe_id}:${row.medicine_id}`);
  }
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const p of prepared) {
    const probe = probesByCode.get(p.probeCode);
    if (!probe || unmatchedReason(p, probe)) continue;
    const key = `${probe.id}:${p.result.analyte}`;
    // The same result twice in one batch: which value would win?
    if (seen.has(key)) errors.push(rowError(p.row.file, p.row.row, 'analyte', 'invalid'));
    seen.add(key);
    const medicineId = medicineIdOf(p.result.analyte);
    if (medicineId !== null && !tested.has(`${probe.id}:${medicineId}`))
      errors.push(rowError(p.row.file, p.row.row, 'analyte', 'invalid'));
  }
  return { probesByCode, errors };
}

/** The samples' values now, locked until the commit: what the batch replaces is what a flush
 *  puts back. */
async function lockedValues(
  tx: Transaction,
  ids: number[],
): Promise<Map<number, Pick<typeof probes.$inferSelect, Biochemistry>>> {
  const found = new Map<number, Pick<typeof probes.$inferSelect, Biochemistry>>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await tx
      .select({
        id: probes.id,
        alt: probes.alt,
        ast: probes.ast,
        creatine: probes.creatine,
        bilirubine: probes.bilirubine,
      })
      .from(probes)
      .where(inArray(probes.id, ids.slice(i, i + CHUNK)))
      .for('update');
    for (const { id, ...row } of rows) found.set(id, row);
  }
  return found;
}

/**
 * Copies the samples' state into the batch's `import_probe_states`, inside the database (so a
 * timestamp keeps its microseconds and a number its digits): `side` 'previous' inserts the rows
 * before the results are applied, 'imported' fills in the state they left.
 */
async function copyStates(
  tx: Transaction,
  batchId: number,
  ids: number[],
  side: 'previous' | 'imported',
): Promise<void> {
  if (side === 'imported') {
    await tx
      .update(importProbeStates)
      .set(
        Object.fromEntries(
          STATE_COLUMNS.map(([column]) => [column, sql`${probes[column]}`]),
        ) as Partial<typeof importProbeStates.$inferInsert>,
      )
      .from(probes)
      .where(
        and(
          eq(probes.id, importProbeStates.probe_id),
          eq(importProbeStates.import_batch_id, batchId),
        ),
      );
    return;
  }
  const columns = sql.join(
    STATE_COLUMNS.flatMap(([column, previous]) => [
      sql.identifier(previous),
      sql.identifier(column),
    ]),
    sql`, `,
  );
  const values = sql.join(
    STATE_COLUMNS.flatMap(([column]) => [sql`${probes[column]}`, sql`${probes[column]}`]),
    sql`, `,
  );
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx.execute(sql`
      insert into ${importProbeStates} (import_batch_id, probe_id, ${columns})
      select ${batchId}::integer, ${probes.id}, ${values} from ${probes}
      where ${inArray(probes.id, ids.slice(i, i + CHUNK))}`);
  }
}

/**
 * Attaches the results to their samples (source `import`), remembering each value and the one
 * it replaced, and each sample's state before and after (flush and restore), and files the rest
 * as unmatched results of the batch with the reason and the sent sex and birth date.
 */
export async function writeResults(
  tx: Transaction,
  batchId: number,
  prepared: PreparedResult[],
  probesByCode: Map<string, ProbeRow>,
): Promise<{ results: number; unmatched: number }> {
  const byProbe = new Map<number, PreparedResult[]>();
  const unmatched: { p: PreparedResult; reason: 'no_probe' | PatientMismatch }[] = [];
  for (const p of prepared) {
    const probe = probesByCode.get(p.probeCode);
    const reason = unmatchedReason(p, probe);
    if (reason || !probe) unmatched.push({ p, reason: reason ?? 'no_probe' });
    else byProbe.set(probe.id, [...(byProbe.get(probe.id) ?? []), p]);
  }
  const probeIds = [...byProbe.keys()];
  const before = await lockedValues(tx, probeIds);
  await copyStates(tx, batchId, probeIds, 'previous');
  const previousConcentrations = new Map<string, number | null>();
  for (let i = 0; i < probeIds.length; i += CHUNK) {
    const rows = await tx
      .select()
      .from(probeMedicines)
      .where(inArray(probeMedicines.probe_id, probeIds.slice(i, i + CHUNK)));
    for (const row of rows)
      previousConcentrations.set(`${row.probe_id}:medicine_${row.medicine_id}`, row.concentration);
  }
  const remembered: (typeof importResultValues.$inferInsert)[] = [];
  for (const [probeId, items] of byProbe) {
    const probe = before.get(probeId)!;
    for (const { result } of items) {
      const previous =
        medicineIdOf(result.analyte) === null
          ? probe[result.analyte as Biochemistry]
          : (previousConcentrations.get(`${probeId}:${result.analyte}`) ?? null);
      remembered.push({
        import_batch_id: batchId,
        probe_id: probeId,
        analyte: result.analyte,
        value: result.value,
        previous_value: previous,
      });
    }
    await applyLabResults(
      tx,
      probeId,
      items.map((i) => i.result),
      'import',
    );
  }
  for (let i = 0; i < remembered.length; i += CHUNK)
    await tx.insert(importResultValues).values(remembered.slice(i, i + CHUNK));
  await copyStates(tx, batchId, probeIds, 'imported');
  const unmatchedRows = unmatched.map(({ p, reason }) => ({
    import_batch_id: batchId,
    probe_code: p.probeCode,
    analyte: p.result.analyte,
    value: p.result.value,
    unit: p.unit,
    lab_range: p.result.labRange?.text ?? null,
    date_of_analysis: p.result.dateOfAnalysis,
    hours: p.result.hours,
    patient_sex: p.sent.sex,
    patient_birth_date: p.sent.birthDate,
    reason,
    raw: { file: p.row.file, row: p.row.row, values: p.row.values },
  }));
  for (let i = 0; i < unmatchedRows.length; i += CHUNK)
    await tx.insert(unmatchedResults).values(unmatchedRows.slice(i, i + CHUNK));
  return { results: remembered.length, unmatched: unmatchedRows.length };
}
