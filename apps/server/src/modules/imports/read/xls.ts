import * as XLSX from '@e965/xlsx';
import type { ErrorList } from './error-list.js';
import { columnLetter, TableBuilder } from './table.js';
import type { CellValue, ImportTable } from './types.js';

/** SheetJS types its number-format library as `any`: the two functions used here, typed. */
const SSF = XLSX.SSF as {
  parse_date_code(
    serial: number,
  ): { y: number; m: number; d: number; H: number; M: number; S: number } | null;
  is_date(format: string | number): boolean;
};

/**
 * A date cell as exceljs gives it: a Date whose UTC fields hold the date and time written in the
 * sheet (a spreadsheet has no time zone), so that both readers agree.
 */
function serialToDate(serial: number): Date | null {
  const parts = SSF.parse_date_code(serial);
  if (!parts) return null;
  return new Date(Date.UTC(parts.y, parts.m - 1, parts.d, parts.H, parts.M, Math.floor(parts.S)));
}

/**
 * Legacy .xls (BIFF) with SheetJS, read only: formulas are not parsed (their cached values are
 * read), the first sheet only, its first row holding the field names. Only the cells that exist
 * are walked, so a sheet claiming a huge range costs nothing.
 */
export function readXls(
  file: string,
  data: Buffer,
  errors: ErrorList,
  maxRows: number,
): ImportTable | null {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(data, {
      type: 'buffer',
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellDates: false,
      // Number formats tell a date from a number.
      cellNF: true,
      cellStyles: false,
      sheets: 0,
    });
  } catch {
    errors.add(file, 'nie udało się odczytać arkusza (uszkodzony plik Excel)');
    return null;
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet) {
    errors.add(file, 'skoroszyt nie ma arkusza');
    return null;
  }
  const rows = new Map<number, CellValue[]>();
  for (const [address, cell] of Object.entries(sheet)) {
    if (address.startsWith('!')) continue;
    const { r, c } = XLSX.utils.decode_cell(address);
    const value = cellValue(cell as XLSX.CellObject, (message) =>
      errors.add(file, message, r + 1, columnLetter(c)),
    );
    if (value === null) continue;
    let cells = rows.get(r);
    if (!cells) rows.set(r, (cells = []));
    while (cells.length < c) cells.push(null);
    cells[c] = value;
  }
  const table = new TableBuilder(file, errors, maxRows, columnLetter);
  for (const r of [...rows.keys()].sort((a, b) => a - b))
    table.add(
      r + 1,
      Array.from(rows.get(r)!, (cell) => cell ?? null),
    );
  return table.build();
}

function cellValue(cell: XLSX.CellObject, problem: (message: string) => void): CellValue {
  switch (cell.t) {
    case 'n':
      if (typeof cell.v !== 'number') return null;
      return cell.z !== undefined && SSF.is_date(cell.z) ? serialToDate(cell.v) : cell.v;
    case 's':
      return typeof cell.v === 'string' && cell.v !== '' ? cell.v : null;
    case 'b':
      return typeof cell.v === 'boolean' ? cell.v : null;
    case 'd':
      return cell.v instanceof Date ? cell.v : null;
    case 'e':
      problem(`komórka zawiera błąd ${cell.w ?? ''}`.trim());
      return null;
    default:
      return null;
  }
}
