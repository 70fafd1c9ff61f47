import type { ErrorList } from './error-list.js';
import type { ImportTable } from './types.js';

export function readXml(
  file: string,
  _data: Buffer,
  errors: ErrorList,
  _maxRows: number,
  _drugCodes: ReadonlyMap<string, number> | undefined,
): ImportTable | null {
  errors.add(file, 'pliki XML będą obsługiwane wkrótce');
  return null;
}
