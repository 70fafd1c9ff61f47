import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ErrorList } from './error-list.js';
import type { ReadLimits } from './limits.js';
import { columnLetter, TableBuilder } from './table.js';
import type { CellValue, ImportTable } from './types.js';
import { readZip } from './zip.js';

type ExcelValue = ExcelJS.CellValue;

/**
 * The value a user sees in a cell. A formula is never evaluated: its result as the file cached it
 * is taken, and a formula without one is an error (the value would otherwise silently be empty).
 * Text stays text, whatever it starts with (= + - @ or a tab): only a real formula cell is a formula.
 */
function cellValue(value: ExcelValue, problem: (message: string) => void): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date)
    return value;
  if ('error' in value) {
    problem(`komórka zawiera błąd ${String(value.error)}`);
    return null;
  }
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null) {
      problem('formuła bez zapisanego wyniku (zapisz plik w Excelu, aby go obliczyć)');
      return null;
    }
    // The streaming reader gives an error result as NaN.
    if (typeof result === 'number' && Number.isNaN(result)) {
      problem('formuła daje błąd');
      return null;
    }
    if (typeof result === 'object' && !(result instanceof Date) && 'error' in result) {
      problem(`formuła daje błąd ${String(result.error)}`);
      return null;
    }
    return result as CellValue;
  }
  if ('richText' in value) return value.richText.map((part) => part.text).join('') || null;
  if ('text' in value) {
    const text = value.text as string | { richText: { text: string }[] };
    return (
      (typeof text === 'string' ? text : text.richText.map((part) => part.text).join('')) || null
    );
  }
  problem('nieobsługiwana zawartość komórki');
  return null;
}

/** One row of a sheet as both exceljs readers give it: its number and 1-based values. */
interface SheetRow {
  number: number;
  values: ExcelValue[];
}
/** A reader of the first sheet: 'sheet' when it is found, then its rows while `more()` holds. */
type FirstSheet = (data: Buffer, more: () => boolean) => AsyncGenerator<'sheet' | SheetRow>;

/**
 * The first sheet's rows through exceljs's streaming reader: memory grows with the rows the
 * import keeps, not with the workbook's XML. Yields nothing when the workbook has no sheet.
 */
const streamedFirstSheet: FirstSheet = async function* (data, more) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    sharedStrings: 'cache',
    // Styles tell a date from a number; hyperlinks are not data.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let found = false;
  for await (const sheet of reader) {
    // The first sheet in the workbook's order (the reader meets them in the file's order).
    const first = (reader as unknown as { model?: { sheets?: { name: string }[] } }).model
      ?.sheets?.[0]?.name;
    // exceljs's typings leave out the reader's sheet name.
    const name = (sheet as unknown as { name?: string }).name;
    // The other sheets are read through and dropped. exceljs keeps a sheet stored before the
    // shared strings in a temporary file, opens it when the sheet's turn comes and deletes it
    // as soon as the sheet is passed: a sheet passed unread is deleted before its file has
    // opened, and the open's ENOENT is thrown where nothing can catch it (it would stop the
    // server; it happened about once in a hundred reads of the import template).
    if (found || (first !== undefined && name !== first)) {
      for await (const row of sheet) void row;
      continue;
    }
    found = true;
    yield 'sheet';
    // Past the row limit the rest is read through unkept, for the same reason (and so that its
    // file is not left open); the container's limits bound what that costs.
    for await (const row of sheet) {
      const values = row.values as ExcelValue[];
      // A shared string the reader could not resolve (it parsed the sheet before the strings, at
      // random under load; it failed CI once): the file is then read whole, as for exceljs#3064.
      if (
        values.some(
          (value) => typeof value === 'object' && value !== null && 'sharedString' in value,
        )
      )
        throw new Error('unresolved shared string');
      if (more()) yield { number: row.number, values };
    }
  }
};

/** The first sheet's rows from the whole workbook loaded at once (exceljs's Workbook). */
const loadedFirstSheet: FirstSheet = async function* (data, more) {
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings want its own Buffer type; a Node Buffer is what it reads.
  await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return;
  yield 'sheet';
  const rows: SheetRow[] = [];
  sheet.eachRow((row, number) => rows.push({ number, values: row.values as ExcelValue[] }));
  for (const row of rows) {
    yield row;
    if (!more()) return;
  }
};

/** A sheet's rows into a table, with this attempt's own errors (dropped if it fails). */
async function tableOf(
  file: string,
  data: Buffer,
  firstSheet: FirstSheet,
  limits: ReadLimits,
): Promise<{ table: TableBuilder; errors: ErrorList; found: boolean }> {
  const errors = new ErrorList(limits.maxErrors);
  const table = new TableBuilder(file, errors, limits.maxRows, columnLetter);
  let found = false;
  for await (const row of firstSheet(data, () => !table.full)) {
    if (row === 'sheet') {
      found = true;
      continue;
    }
    const cells: CellValue[] = [];
    for (let index = 1; index < row.values.length; index += 1)
      cells.push(
        cellValue(row.values[index], (message) =>
          errors.add(file, message, row.number, columnLetter(index - 1)),
        ),
      );
    table.add(row.number, cells);
  }
  return { table, errors, found };
}

/**
 * .xlsx and .xlsm (the same container; a macro project is a part exceljs never runs). The
 * container is first inflated under the zip limits and its layout checked, so a crafted part
 * cannot blow up memory inside exceljs; then the first sheet is read row by row with exceljs's
 * streaming reader, or whole when that reader fails on a small file (maxWholeWorkbookBytes), its
 * first row holding the field names.
 */
export async function readXlsx(
  file: string,
  data: Buffer,
  errors: ErrorList,
  limits: ReadLimits,
): Promise<ImportTable | null> {
  const before = errors.count;
  await readZip(
    file,
    data,
    {
      maxEntries: limits.maxZipEntries,
      maxEntryBytes: limits.maxUnpackedBytes,
      maxTotalBytes: limits.maxUnpackedBytes,
    },
    errors,
    false,
  );
  if (errors.count > before) return null;
  let read: Awaited<ReturnType<typeof tableOf>> | null = null;
  for (const firstSheet of [streamedFirstSheet, loadedFirstSheet]) {
    // exceljs's streaming reader fails on some workbooks, at random on exceljs's own (exceljs#3064,
    // open: a sheet met before the part naming the sheets throws "Cannot read properties of
    // undefined (reading 'sheets')"). Such a file is read whole if it is small enough; a larger
    // one is refused as damaged rather than loaded whole.
    if (firstSheet === loadedFirstSheet && data.length > limits.maxWholeWorkbookBytes) break;
    try {
      read = await tableOf(file, data, firstSheet, limits);
      break;
    } catch {
      // A damaged file fails both ways; the message below says so.
    }
  }
  if (!read) {
    errors.add(file, 'nie udało się odczytać arkusza (uszkodzony plik Excel)');
    return null;
  }
  errors.absorb(read.errors);
  if (!read.found) {
    errors.add(file, 'skoroszyt nie ma arkusza');
    return null;
  }
  return read.table.build();
}
