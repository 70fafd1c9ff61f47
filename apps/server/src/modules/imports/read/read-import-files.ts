import { readCsv } from './csv.js';
import { detectFormat, WRONG_TYPE } from './detect.js';
import { ErrorList } from './error-list.js';
import { megabytes, readLimits } from './limits.js';
import type { ReadLimits } from './limits.js';
import { ImportReadError, NO_DATA_ROWS } from './types.js';
import type { ImportTable, ReadOptions, UploadedFile } from './types.js';
import { readXls } from './xls.js';
import { readXlsx } from './xlsx.js';
import { readXml } from './xml.js';
import { readZip } from './zip.js';

interface Context {
  errors: ErrorList;
  limits: ReadLimits;
  options: ReadOptions | undefined;
}

/**
 * One file (a zip's entry included): its tables, and an error for a table that was read without
 * fault but holds no data row (a header alone, an empty sheet or XML root): such a file is
 * refused rather than imported as an empty batch.
 */
async function readOne(
  name: string,
  data: Buffer,
  context: Context,
  insideZip: boolean,
): Promise<ImportTable[]> {
  const before = context.errors.count;
  const tables = await readFormat(name, data, context, insideZip);
  if (context.errors.count === before)
    for (const table of tables)
      if (table.rows.length === 0) context.errors.add(table.file, NO_DATA_ROWS);
  return tables;
}

async function readFormat(
  name: string,
  data: Buffer,
  context: Context,
  insideZip: boolean,
): Promise<ImportTable[]> {
  const { errors, limits } = context;
  if (data.length === 0) {
    errors.add(name, 'plik jest pusty');
    return [];
  }
  const format = await detectFormat(name, data);
  if (format === null) {
    errors.add(name, WRONG_TYPE);
    return [];
  }
  switch (format) {
    case 'csv':
      return [readCsv(name, data, errors, limits.maxRows)];
    case 'xlsx': {
      const table = await readXlsx(name, data, errors, limits);
      return table ? [table] : [];
    }
    case 'xls': {
      const table = readXls(name, data, errors, limits.maxRows);
      return table ? [table] : [];
    }
    case 'xml': {
      const table = readXml(name, data, errors, limits.maxRows, context.options?.drugCodes);
      return table ? [table] : [];
    }
    case 'zip': {
      if (insideZip) {
        errors.add(name, 'archiwum zip w archiwum zip jest niedozwolone');
        return [];
      }
      const entries = await readZip(
        name,
        data,
        {
          maxEntries: limits.maxZipEntries,
          maxEntryBytes: limits.maxEntryBytes,
          maxTotalBytes: limits.maxUnpackedBytes,
        },
        errors,
      );
      if (entries === null) return [];
      if (entries.length === 0) errors.add(name, 'archiwum nie zawiera plików');
      const tables: ImportTable[] = [];
      for (const entry of entries)
        tables.push(...(await readOne(`${name}/${entry.name}`, entry.data, context, true)));
      return tables;
    }
  }
}

/**
 * Reads every uploaded file into tables (a zip's entries each into their own), checking type by
 * content, every size limit and every format rule. Nothing is validated against the study's data
 * here: that is the import's job. All problems of all files are collected and thrown together.
 *
 * @throws ImportReadError with every problem found (at most `maxErrors` listed).
 */
export async function readImportFiles(
  files: UploadedFile[],
  options?: ReadOptions,
): Promise<ImportTable[]> {
  const limits = readLimits(options);
  const errors = new ErrorList(limits.maxErrors);
  if (files.length === 0) throw new ImportReadError(['Nie wybrano żadnego pliku']);
  // Sizes before any reading: nothing of an oversized upload is parsed.
  let total = 0;
  for (const file of files) {
    total += file.data.length;
    if (file.data.length > limits.maxFileBytes)
      errors.add(file.name, `plik jest za duży (najwięcej ${megabytes(limits.maxFileBytes)})`);
  }
  if (total > limits.maxTotalBytes)
    errors.add(
      'Przesłane pliki',
      `razem są za duże (${megabytes(total)}, najwięcej ${megabytes(limits.maxTotalBytes)})`,
    );
  if (errors.count > 0) throw new ImportReadError(errors.toArray());
  const context: Context = { errors, limits, options };
  const tables: ImportTable[] = [];
  for (const file of files) tables.push(...(await readOne(file.name, file.data, context, false)));
  if (errors.count > 0) throw new ImportReadError(errors.toArray());
  return tables;
}
