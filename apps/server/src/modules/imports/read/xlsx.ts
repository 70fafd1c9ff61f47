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
 * container is first inflated under the zip limits, so a crafted sheet cannot blow up memory
 * inside exceljs; then the first sheet is read, its first row holding the field names.
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
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings want its own Buffer type; a Node Buffer is what it reads.
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    errors.add(file, 'nie udało się odczytać arkusza (uszkodzony plik Excel)');
    return null;
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) {
    errors.add(file, 'skoroszyt nie ma arkusza');
    return null;
  }
  const table = new TableBuilder(file, errors, limits.maxRows, columnLetter);
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const raw = row.values as ExcelValue[];
    const cells: CellValue[] = [];
    for (let index = 1; index < raw.length; index += 1)
      cells.push(
        cellValue(raw[index], (message) =>
          errors.add(file, message, rowNumber, columnLetter(index - 1)),
        ),
      );
    table.add(rowNumber, cells);
  });
  return table.build();
}
