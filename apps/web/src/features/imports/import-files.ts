import { IMPORT_EXTENSIONS, MAX_FILE_BYTES } from '@portal/shared';

/**
 * What the picker offers (docs/product-rules.md "Validation"): by MIME type and, for odd browser
 * types, by extension.
 */
export const IMPORT_ACCEPT: Record<string, string[]> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.ms-excel': ['.xls'],
  'application/vnd.ms-excel.sheet.macroEnabled.12': ['.xlsm'],
  'application/zip': ['.zip'],
  'text/csv': ['.csv'],
  'application/xml': ['.xml'],
  'text/xml': ['.xml'],
};

/** At most this many files in one upload (the server refuses more). */
export const MAX_IMPORT_FILES = 10;

/** What is wrong with a chosen file before it is sent (the server checks its content too). */
export function importFileProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extension)) return 'type';
  return file.size > MAX_FILE_BYTES ? 'size' : null;
}

/** A picked file's identity: picking the same file twice lists it once. */
export function fileKey(file: { name: string; size: number; lastModified: number }): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

/** The chosen files with the newly picked ones appended, without repeats. */
export function addFiles<T extends { name: string; size: number; lastModified: number }>(
  chosen: readonly T[],
  picked: readonly T[],
): T[] {
  const seen = new Set(chosen.map(fileKey));
  const result = [...chosen];
  for (const file of picked) {
    const key = fileKey(file);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(file);
  }
  return result;
}

/** A file size as people read it: "512 B", "12,4 KB", "3,2 MB" (decimal comma in Polish). */
export function formatFileSize(bytes: number, language: string): string {
  const number = (value: number) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024)} KB`;
  return `${number(bytes / (1024 * 1024))} MB`;
}

/** Upload progress in whole percent, never 100 before the last byte is sent. */
export function uploadPercent(loaded: number, total: number): number {
  if (total <= 0) return 0;
  if (loaded >= total) return 100;
  return Math.min(99, Math.floor((loaded / total) * 100));
}
