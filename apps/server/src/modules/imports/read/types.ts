/**
 * What the import file readers give the import (docs/product-rules.md "Imports";
 * docs/api-conventions.md "Import"): every file of an upload (a .zip's entries included) read into
 * tables of raw cells, not yet validated.
 */
export type CellValue = string | number | boolean | Date | null;
/** One data row of one table; `row` is the 1-based row number a user sees in the file
 *  (the header is row 1 of a sheet or csv). */
export interface ImportRow {
  file: string;
  row: number;
  values: Record<string, CellValue>;
}
export interface ImportTable {
  file: string /* the file's name inside a zip: "a.zip/x.csv" */;
  /** A sheet or csv with its own header, or an XML format that is always the results layout. */
  kind: 'table' | 'hl7' | 'odm' | 'results-xml';
  columns: string[];
  rows: ImportRow[];
}
/** The message for a file read without fault that holds no data row (ADR 036). */
export const NO_DATA_ROWS = 'plik nie zawiera żadnych wierszy danych';

export interface UploadedFile {
  name: string;
  data: Buffer;
}
/** Every problem, formatted "<file>, wiersz <n>, kolumna <name>: <message>" (row/column
 *  omitted when not applicable: "<file>: <message>"), Polish messages. */
export class ImportReadError extends Error {
  constructor(readonly errors: string[]) {
    super(errors[0] ?? 'Nie udało się odczytać plików');
    this.name = 'ImportReadError';
  }
}
/** The limits of one read; every one has a default in `limits.ts`. */
export interface ReadOptions {
  /** Largest uploaded file (bytes), checked before reading. */
  maxFileBytes?: number;
  /** Largest upload, all files together (bytes), checked before reading. */
  maxTotalBytes?: number;
  /** Most entries of one zip (an xlsx's own parts included). */
  maxZipEntries?: number;
  /** Largest unpacked zip entry (bytes), counted while inflating. */
  maxEntryBytes?: number;
  /** Largest unpacked zip, all entries together (bytes), counted while inflating. */
  maxUnpackedBytes?: number;
  /**
   * Largest .xlsx read whole when exceljs's streaming reader fails on it (xlsx.ts): the whole
   * workbook's cells are then in memory at once.
   */
  maxWholeWorkbookBytes?: number;
  /** Most data rows of one table. */
  maxRows?: number;
  /** Most errors listed; the rest are counted ("… i N więcej"). */
  maxErrors?: number;
  /** HL7 OBX-3 drug codes (upper case) → medicine id, for the results layout's `analyte`. */
  drugCodes?: ReadonlyMap<string, number>;
}

/**
 * The results layout (docs/api-conventions.md "Import") that HL7 v2 XML and ODM files are read
 * into.
 */
export const RESULT_LAYOUT_COLUMNS = [
  'probe_code',
  'analyte',
  'value',
  'unit',
  'date_of_analysis',
  'hours',
  'lab_range',
  'patient_sex',
  'patient_birth_date',
] as const;
