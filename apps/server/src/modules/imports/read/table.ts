import type { ErrorList } from './error-list.js';
import type { CellValue, ImportRow, ImportTable } from './types.js';

/**
 * Builds a table from a sheet's or a csv's rows: the first row holds the field names (trimmed),
 * every later row is data. A row with no value at all is skipped (spreadsheets keep formatted
 * empty rows); a value under a column without a name, or a repeated name, is an error rather
 * than dropped.
 */
export class TableBuilder {
  private columns: (string | null)[] | null = null;
  private readonly rows: ImportRow[] = [];
  private tooMany = false;

  constructor(
    private readonly file: string,
    private readonly errors: ErrorList,
    private readonly maxRows: number,
    /** How a column is named in messages when it has no name (a sheet's letter, a csv's number). */
    private readonly columnLabel: (index: number) => string,
  ) {}

  /** `row` is the 1-based row number in the file; `cells` from the first column on. */
  add(row: number, cells: readonly CellValue[]): void {
    if (this.columns === null) {
      this.header(cells);
      return;
    }
    if (cells.every((cell) => cell === null)) return;
    if (this.rows.length >= this.maxRows) {
      if (!this.tooMany) {
        this.errors.add(this.file, `plik ma więcej niż ${this.maxRows} wierszy danych`, row);
        this.tooMany = true;
      }
      return;
    }
    const values: Record<string, CellValue> = {};
    for (const [index, name] of this.columns.entries()) {
      if (name !== null) values[name] = cells[index] ?? null;
    }
    for (let index = 0; index < cells.length; index += 1) {
      if (cells[index] !== null && (this.columns[index] ?? null) === null)
        this.errors.add(this.file, 'wartość w kolumnie bez nazwy', row, this.columnLabel(index));
    }
    this.rows.push({ file: this.file, row, values });
  }

  private header(cells: readonly CellValue[]): void {
    const seen = new Set<string>();
    this.columns = cells.map((cell, index) => {
      if (cell === null) return null;
      const name = (cell instanceof Date ? cell.toISOString() : String(cell)).trim();
      if (name === '') return null;
      if (seen.has(name)) {
        this.errors.add(
          this.file,
          `kolumna „${name}” występuje więcej niż raz`,
          1,
          this.columnLabel(index),
        );
        return null;
      }
      seen.add(name);
      return name;
    });
  }

  build(): ImportTable {
    if (this.columns === null)
      this.errors.add(this.file, 'plik jest pusty (brak wiersza z nazwami kolumn)');
    return {
      file: this.file,
      kind: 'table',
      columns: (this.columns ?? []).filter((name): name is string => name !== null),
      rows: this.rows,
    };
  }
}

/** A sheet's column letter for a 0-based index: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
