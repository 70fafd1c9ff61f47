import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import type { ErrorList } from './error-list.js';
import { megabytes } from './limits.js';

export interface ZipEntryData {
  name: string;
  data: Buffer;
}

export interface ZipLimits {
  maxEntries: number;
  /** Per entry, counted while inflating (the header's size is checked too, but not trusted). */
  maxEntryBytes: number;
  /** All entries together, counted while inflating. */
  maxTotalBytes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

class ZipRefused extends Error {}

function open(data: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      data,
      // yauzl refuses absolute paths, "../" and drive letters itself when it decodes names.
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

function polish(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ZipRefused) return message;
  if (/^(invalid relative path|absolute path|invalid characters in fileName)/.test(message))
    return `niedozwolona ścieżka w archiwum (${message.replace(/^[^:]*:\s*/, '').slice(0, 200)})`;
  if (/too many bytes|too few bytes|expected .*bytes/i.test(message))
    return 'rozmiar pliku w archiwum nie zgadza się z nagłówkiem (uszkodzone lub spreparowane archiwum)';
  if (/encrypted/i.test(message)) return 'zaszyfrowane archiwum nie jest obsługiwane';
  return 'uszkodzone archiwum zip';
}

/**
 * The entries of a zip, inflated under the limits (a zip bomb is stopped by counting the bytes
 * as they inflate, whatever its headers claim); directories are skipped, and so is macOS's
 * `__MACOSX/` metadata. Symbolic links, paths leaving the archive, encrypted entries and more
 * entries than allowed are refused: the first such problem ends the read with one error and
 * null. With `keep: false` the entries are only checked (an xlsx before exceljs unpacks it).
 */
export async function readZip(
  file: string,
  data: Buffer,
  limits: ZipLimits,
  errors: ErrorList,
  keep = true,
): Promise<ZipEntryData[] | null> {
  let zip: ZipFile | undefined;
  try {
    zip = await open(data);
    if (zip.entryCount > limits.maxEntries)
      throw new ZipRefused(
        `archiwum ma zbyt wiele plików (${zip.entryCount}, najwięcej ${limits.maxEntries})`,
      );
    return await entries(zip, limits, keep);
  } catch (error) {
    errors.add(file, polish(error));
    return null;
  } finally {
    zip?.close();
  }
}

function entries(zip: ZipFile, limits: ZipLimits, keep: boolean): Promise<ZipEntryData[]> {
  const found: ZipEntryData[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: Error): void => {
      zip.removeAllListeners('entry');
      reject(error);
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(found));
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK)
        return fail(
          new ZipRefused(`dowiązanie symboliczne w archiwum jest niedozwolone (${name})`),
        );
      if (name.endsWith('/') || name.startsWith('__MACOSX/')) return zip.readEntry();
      if (entry.uncompressedSize > limits.maxEntryBytes)
        return fail(
          new ZipRefused(
            `plik ${name} w archiwum jest za duży po rozpakowaniu (najwięcej ${megabytes(limits.maxEntryBytes)})`,
          ),
        );
      if (total + entry.uncompressedSize > limits.maxTotalBytes) return fail(tooBig(limits));
      zip.openReadStream(entry, (error, stream) => {
        if (error) return fail(error);
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          total += chunk.length;
          // yauzl already stops an entry at its declared size; this is the bound if it did not.
          if (size > limits.maxEntryBytes || total > limits.maxTotalBytes) {
            stream.destroy(tooBig(limits));
            return;
          }
          if (keep) chunks.push(chunk);
        });
        stream.on('error', fail);
        stream.on('end', () => {
          if (keep) found.push({ name, data: Buffer.concat(chunks) });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

function tooBig(limits: ZipLimits): ZipRefused {
  return new ZipRefused(
    `archiwum jest za duże po rozpakowaniu (najwięcej ${megabytes(limits.maxTotalBytes)})`,
  );
}
