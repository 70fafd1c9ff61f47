import * as CFB from 'cfb';
import { IMPORT_EXTENSIONS } from '@portal/shared';

/** How a file is read. */
export type ImportFormat = 'xlsx' | 'xls' | 'zip' | 'csv' | 'xml';

/**
 * The message for a file that is not what an import takes (docs/product-rules.md "Messages
 * shown to users").
 */
export const WRONG_TYPE = 'Nieprawidłowy rodzaj pliku';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Text without control bytes other than tab and line breaks (a csv or an xml). */
function isText(data: Buffer): boolean {
  return !data.subarray(0, 64 * 1024).some((b) => b === 0 || b < 0x09 || (b > 0x0d && b < 0x20));
}

/** An OLE2 container holding an Excel workbook stream (not an installer or a Word file). */
function isXlsContainer(data: Buffer): boolean {
  try {
    const container = CFB.read(data, { type: 'buffer' });
    return container.FileIndex.some((entry) => /^(workbook|book)$/i.test(entry.name));
  } catch {
    return false;
  }
}

/**
 * The format by the bytes first (file-type's magic numbers), then by the name: the content must be
 * of a kind the extension allows (an .exe renamed .xlsx is refused, a macro-enabled workbook
 * under an .xlsx name is read as the workbook it is). Null when the file is refused.
 */
export async function detectFormat(name: string, data: Buffer): Promise<ImportFormat | null> {
  const extension = extensionOf(name);
  if (!(IMPORT_EXTENSIONS as readonly string[]).includes(extension)) return null;
  // Loaded on the first import rather than at every start (ADR 020).
  const { fileTypeFromBuffer } = await import('file-type');
  const detected: string | undefined = (await fileTypeFromBuffer(data))?.ext;
  switch (detected) {
    case 'xlsx':
    case 'xlsm':
      // A workbook is read as a workbook even when named .zip.
      return ['xlsx', 'xlsm', 'zip'].includes(extension) ? 'xlsx' : null;
    case 'zip':
      if (extension === 'zip') return 'zip';
      // Some writers put the workbook's parts in an order file-type does not recognise: exceljs
      // then tells whether it is a workbook.
      return extension === 'xlsx' || extension === 'xlsm' ? 'xlsx' : null;
    case 'cfb':
      return extension === 'xls' && isXlsContainer(data) ? 'xls' : null;
    case 'xml':
      return extension === 'xml' ? 'xml' : null;
    case undefined:
      if (!isText(data)) return null;
      if (extension === 'csv') return 'csv';
      if (extension === 'xml') return 'xml';
      return null;
    default:
      return null;
  }
}
