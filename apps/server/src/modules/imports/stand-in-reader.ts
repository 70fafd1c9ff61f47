import ExcelJS from 'exceljs';

/*
 * A stand-in for the file readers (`read/`, another branch) behind the same interface: csv
 * (comma or semicolon, simple quotes) and the first sheet of an xlsx. Replaced by `read/` on
 * merge; only the import service and its tests call it.
 */

export type CellValue = string | number | boolean | Date | null;
export interface ImportRow {
  file: string;
  row: number;
  values: Record<string, CellValue>;
}
export interface ImportTable {
  file: string;
  kind: 'table' | 'hl7' | 'odm';
  columns: string[];
  rows: ImportRow[];
}
export interface UploadedFile {
  name: string;
  data: Buffer;
}
export class ImportReadError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('\n'));
    this.name = 'ImportReadError';
  }
}

function splitCsvLine(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

function readCsv(file: UploadedFile): ImportTable {
  const text = file.data.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const header = lines[0] ?? '';
  const separator = header.includes(';') ? ';' : ',';
  const columns = splitCsvLine(header, separator).map((c) => c.trim());
  const rows: ImportRow[] = [];
  lines.slice(1).forEach((line, index) => {
    if (line.trim() === '') return;
    const cells = splitCsvLine(line, separator);
    const values: Record<string, CellValue> = {};
    columns.forEach((column, c) => (values[column] = cells[c] ?? null));
    rows.push({ file: file.name, row: index + 2, values });
  });
  return { file: file.name, kind: 'table', columns, rows };
}

function cellOf(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && !(value instanceof Date)) {
    if ('result' in value) return cellOf(value.result);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    return null;
  }
  return value;
}

async function readXlsx(file: UploadedFile): Promise<ImportTable> {
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings predate Node's generic Buffer.
  await workbook.xlsx.load(file.data as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  const columns: string[] = [];
  const rows: ImportRow[] = [];
  sheet?.eachRow((row, rowNumber) => {
    if (rowNumber === 1) {
      row.eachCell((cell, col) => (columns[col - 1] = String(cellOf(cell.value) ?? '').trim()));
      return;
    }
    const values: Record<string, CellValue> = {};
    columns.forEach((column, c) => (values[column] = cellOf(row.getCell(c + 1).value)));
    rows.push({ file: file.name, row: rowNumber, values });
  });
  return { file: file.name, kind: 'table', columns, rows };
}

export async function readImportFiles(files: UploadedFile[]): Promise<ImportTable[]> {
  const tables: ImportTable[] = [];
  for (const file of files) {
    const extension = file.name.split('.').pop()?.toLowerCase();
    if (extension === 'csv') tables.push(readCsv(file));
    else if (extension === 'xlsx') tables.push(await readXlsx(file));
    else throw new ImportReadError([`${file.name}: Nieprawidłowy rodzaj pliku`]);
  }
  return tables;
}
