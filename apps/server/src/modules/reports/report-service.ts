import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import type { ReportColumn } from '@portal/shared';
import type { Database } from '../../db/client.js';
import { subjectIdSql } from '../exports/index.js';

/**
 * The Excel report (POST /api/generate_reports, ADR 032): one row per sample of a live patient,
 * read in keyset pages by the sample's id and written row by row with exceljs's streaming
 * writer, so neither the rows nor the file are ever whole in memory.
 *
 * Keyset pages rather than one server-side cursor: a cursor needs an open transaction for the
 * whole download, which on PGlite (one connection) would stop every other request until the
 * last row is written. The price: a sample saved during a download may or may not be in it.
 */

export const REPORT_FILE_NAME = 'data.xlsx';
export const REPORT_PAGE_SIZE = 2_000;

/** The file's column headers (Polish: the file is for the study's Polish data managers). */
export const REPORT_HEADERS: Record<ReportColumn, string> = {
  patient_id: 'Numer pacjenta',
  probe_code: 'Numer próbki',
  type_of_probe: 'Rodzaj materiału',
  patients_group: 'Numer grupy',
  biochemistry_results_alt: 'ALT',
  biochemistry_results_ast: 'AST',
  biochemistry_results_creatine: 'Kreatynina',
  biochemistry_results_bilirubine: 'Bilirubina',
  first_medicine_concentrations_result: 'Lek 1 (stężenie)',
  second_medicine_concentrations_result: 'Lek 2 (stężenie)',
  third_medicine_concentrations_result: 'Lek 3 (stężenie)',
  visit_results_qrs: 'QRS',
  visit_results_qtcb: 'QTcB',
};

const MATERIAL: Record<string, string> = { venous: 'żylna', capillary: 'włośniczkowa' };

export type ReportCell = string | number | Date | null;

/** One sample as the query reads it (numerics as text, as both drivers give them). */
export interface ReportSource {
  id: number;
  code: string;
  type_of_material: string;
  patient_id: number;
  /** The patient's study subject id (ADR 054): the patient column of a pseudonymised report. */
  subject?: string;
  group_nr: number | null;
  alt: string | null;
  ast: string | null;
  creatine: string | null;
  bilirubine: string | null;
  qrs: number | null;
  qtcb: number | null;
  /** The sample's medicines' concentrations in medicine id order (null: not measured yet). */
  concentrations: (string | null)[] | null;
}

const number = (value: string | number | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/**
 * The value of one column of one sample; medicine 1–3 are the sample's medicines by id. A
 * pseudonymised report (ADR 054) names the patient by the study subject id and the sample by its
 * id: a sample code carries the participant number (ADR 041).
 */
export function reportCell(
  source: ReportSource,
  column: ReportColumn,
  pseudonymised = false,
): ReportCell {
  switch (column) {
    case 'patient_id':
      return pseudonymised ? (source.subject ?? null) : source.patient_id;
    case 'probe_code':
      return pseudonymised ? `sample-${source.id}` : source.code;
    case 'type_of_probe':
      return MATERIAL[source.type_of_material] ?? source.type_of_material;
    case 'patients_group':
      return number(source.group_nr);
    case 'biochemistry_results_alt':
      return number(source.alt);
    case 'biochemistry_results_ast':
      return number(source.ast);
    case 'biochemistry_results_creatine':
      return number(source.creatine);
    case 'biochemistry_results_bilirubine':
      return number(source.bilirubine);
    case 'first_medicine_concentrations_result':
      return number(source.concentrations?.[0]);
    case 'second_medicine_concentrations_result':
      return number(source.concentrations?.[1]);
    case 'third_medicine_concentrations_result':
      return number(source.concentrations?.[2]);
    case 'visit_results_qrs':
      return number(source.qrs);
    case 'visit_results_qtcb':
      return number(source.qtcb);
  }
}

/** Text a spreadsheet could take for a formula (OWASP "CSV injection") if typed in again. */
export const looksLikeFormula = (text: string): boolean => /^[=+\-@\t\r]/.test(text);

/** One page of samples after the given id, in id order. */
export async function loadReportPage(
  db: Database,
  afterId: number,
  limit = REPORT_PAGE_SIZE,
): Promise<ReportSource[]> {
  const result: unknown = await db.execute(sql`
    select p.id, p.code, p.type_of_material, p.patient_id, ${subjectIdSql} as subject,
      g.nr as group_nr,
      p.alt::text as alt, p.ast::text as ast, p.creatine::text as creatine,
      p.bilirubine::text as bilirubine, v.qrs, v.qtcb,
      (select array_agg(pm.concentration::text order by pm.medicine_id)
         from probe_medicines pm where pm.probe_id = p.id) as concentrations
    from probes p
    join patients pt on pt.id = p.patient_id and pt.deleted_at is null
    left join study_subjects s on s.patient_id = p.patient_id
    left join patient_inclusions pi on pi.patient_id = p.patient_id
    left join inclusion_criteria_groups g on g.id = pi.group_id
    left join visits v on v.id = p.visit_id and v.cancelled_at is null
    where p.id > ${afterId}
    order by p.id
    limit ${limit}`);
  // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
  return (result as { rows: ReportSource[] }).rows;
}

/**
 * Every sample, page by page. The next page is asked for while the current one is written, so
 * that the database's time overlaps the writer's (on PostgreSQL; PGlite runs in this thread).
 */
export async function* reportPages(
  db: Database,
  pageSize = REPORT_PAGE_SIZE,
): AsyncGenerator<ReportSource[]> {
  const fetchAfter = (after: number) => {
    const promise = loadReportPage(db, after, pageSize);
    // Handled where it is awaited; this only keeps a page fetched ahead of a download that
    // stopped early from counting as an unhandled rejection.
    promise.catch(() => undefined);
    return promise;
  };
  let next = fetchAfter(0);
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    const full = page.length === pageSize;
    if (full) next = fetchAfter(Number(page[page.length - 1]!.id));
    yield page;
    if (!full) return;
  }
}

/**
 * Writes the workbook to `out`: the header row, then each sample's row committed as it comes.
 * Strings are written as strings (exceljs never turns a string value into a formula); one that
 * looks like a formula also gets the text format "@", so that editing the cell in Excel keeps
 * it text. Waits for `out` to drain between pages, so a slow client holds back the reading
 * instead of filling memory. Rejects on any failure without finishing the zip: the caller must
 * then destroy the response, and the client sees a broken download, never a short file that
 * looks whole.
 */
export async function writeReport(
  pages: AsyncIterable<ReportSource[]>,
  columns: readonly ReportColumn[],
  out: Writable,
  pseudonymised = false,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Raport');
  sheet.columns = columns.map((column) => ({
    header: REPORT_HEADERS[column],
    key: column,
    width: column === 'probe_code' ? 24 : 16,
  }));
  sheet.getRow(1).font = { bold: true };
  // Only text columns can hold formula-like text; the material's words never do.
  const textColumns = columns.flatMap((column, index) => (column === 'probe_code' ? [index] : []));
  let count = 0;
  for await (const page of pages) {
    for (const source of page) {
      const values = columns.map((column) => reportCell(source, column, pseudonymised));
      const row = sheet.addRow(values);
      for (const index of textColumns) {
        const value = values[index];
        if (typeof value === 'string' && looksLikeFormula(value)) {
          row.getCell(index + 1).numFmt = '@';
        }
      }
      row.commit();
      count += 1;
    }
    if (out.destroyed) throw closedError();
    if (out.writableNeedDrain) await drained(out);
    // Lets the socket's I/O (and a disconnect) through between pages.
    await nextTurn();
  }
  sheet.commit();
  await Promise.race([workbook.commit(), closed(out)]);
  return count;
}

/** Resolves on 'drain'; rejects when the stream closes first (the client went away). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => finish();
    const onClose = () => finish(closedError());
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}

const closedError = () => new Error('the report download was closed');

/**
 * Rejects when the stream closes before everything was written to it (the client went away);
 * a stream that closes after its end was written is the normal finish and settles nothing.
 */
function closed(out: Writable): Promise<never> {
  return new Promise((_, reject) => {
    const check = () => {
      if (!out.writableFinished) reject(closedError());
    };
    if (out.destroyed) check();
    else out.once('close', check);
  });
}
