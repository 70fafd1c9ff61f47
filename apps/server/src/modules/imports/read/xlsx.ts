import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ErrorList } from './error-list.js';
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

/**
 * .xlsx and .xlsm (the same container; a macro project is a part exceljs never runs). The
 * container is first inflated under the zip limits and its layout checked, so a crafted part
 * cannot blow up memory inside exceljs; then the first sheet is read row by row with exceljs's
 * streaming reader (memory grows with the rows kept, not with the workbook's XML), its first row
 * holding the field names.
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
  const table = new TableBuilder(file, errors, limits.maxRows, columnLetter);
  let found = false;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
      sharedStrings: 'cache',
      // Styles tell a date from a number; hyperlinks are not data.
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      // The first sheet in the workbook's order (the reader meets them in the file's order).
      const first = (reader as unknown as { model?: { sheets?: { name: string }[] } }).model
        ?.sheets?.[0]?.name;
      // exceljs's typings leave out the reader's sheet name.
      const name = (sheet as unknown as { name?: string }).name;
      // The other sheets are passed over, not broken off: exceljs removes the temporary file it
      // keeps a deferred sheet in only when its turn comes.
      if (found || (first !== undefined && name !== first)) continue;
      found = true;
      for await (const row of sheet) {
        const raw = row.values as ExcelValue[];
        const cells: CellValue[] = [];
        for (let index = 1; index < raw.length; index += 1)
          cells.push(
            cellValue(raw[index], (message) =>
              errors.add(file, message, row.number, columnLetter(index - 1)),
            ),
          );
        table.add(row.number, cells);
        // Past the row limit the rest of the sheet is not worth reading.
        if (table.full) break;
      }
    }
  } catch {
    errors.add(file, 'nie udało się odczytać arkusza (uszkodzony plik Excel)');
    return null;
  }
  if (!found) {
    errors.add(file, 'skoroszyt nie ma arkusza');
    return null;
  }
  return table.build();
}
