import type { ReadOptions } from './types.js';

/**
 * Default limits (ADR 032): they bound the memory and time of one import whatever the upload
 * holds. 20 MB per file matches every other upload (ADR 011); an unpacked zip may hold no more
 * than the whole upload may (100 MB), so a zip does not widen the bound. Rows are what a read
 * keeps in memory (a 10,000-row, 23-column sheet: ~2 s and ~90 MB), hence at most 50,000 per
 * table, five times the import's 10,000-patient target.
 */
export const DEFAULT_READ_LIMITS: Required<Omit<ReadOptions, 'drugCodes'>> = {
  maxFileBytes: 20 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
  maxZipEntries: 1_000,
  maxEntryBytes: 20 * 1024 * 1024,
  maxUnpackedBytes: 100 * 1024 * 1024,
  // Read whole, the 10,000-patient template (0.95 MB) takes about 95 MB of heap: 2 MB, twice that.
  maxWholeWorkbookBytes: 2 * 1024 * 1024,
  maxRows: 50_000,
  maxErrors: 1_000,
};

export type ReadLimits = typeof DEFAULT_READ_LIMITS;

export function readLimits(options: ReadOptions | undefined): ReadLimits {
  const limits = { ...DEFAULT_READ_LIMITS };
  for (const key of Object.keys(limits) as (keyof ReadLimits)[]) {
    const value = options?.[key];
    if (typeof value === 'number') limits[key] = value;
  }
  return limits;
}

/** "20 MB" for messages. */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
