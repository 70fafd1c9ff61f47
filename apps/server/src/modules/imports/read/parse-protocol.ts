import type { ImportRow, ImportTable, ReadOptions } from './types.js';

/** The messages between the server and its parse workers (read-in-worker.ts, parse-worker.ts). */

/** What the server asks of a parse worker: one upload's files (their bytes transferred). */
export interface ParseJob {
  files: { name: string; data: Uint8Array }[];
  options: ReadOptions | undefined;
}

/**
 * What the worker answers, in this order: each table's head, then its rows in chunks, then
 * `done`; or `refused` (the files' faults, as the import lists them) or `failed` (a fault of
 * the reader itself, which the server logs). Rows come in chunks, each sent only when the server
 * asks for the next (`NEXT`): a port delivers every waiting message in one turn of the event loop,
 * so 40 chunks sent at once held the server's thread for 400 ms; one chunk of 500 rows takes it
 * a few ms, and other requests are served between two.
 */
export type ParseMessage =
  | { type: 'table'; table: Omit<ImportTable, 'rows'> }
  | { type: 'rows'; rows: ImportRow[] }
  | { type: 'done' }
  | { type: 'refused'; errors: string[] }
  | { type: 'failed'; message: string };

export const ROWS_PER_MESSAGE = 500;
/** What the server sends when it has taken a chunk of rows and wants the next. */
export const NEXT = 'next';
