import { parentPort } from 'node:worker_threads';
import { readImportFiles } from './read-import-files.js';
import { ImportReadError } from './types.js';
import type { ImportRow, ImportTable, ReadOptions } from './types.js';

/** What the server asks of a parse worker: one upload's files (their bytes transferred). */
export interface ParseJob {
  files: { name: string; data: Uint8Array }[];
  options: ReadOptions | undefined;
}

/**
 * What the worker answers, in this order: each table's head, then its rows in chunks, then
 * `done`; or `refused` (the files' faults, as the import lists them) or `failed` (a fault of
 * the reader itself, which the server logs). Rows come in chunks so that the server's thread
 * never deserialises one large message at once: a chunk of 1,000 rows takes it a few ms.
 */
export type ParseMessage =
  | { type: 'table'; table: Omit<ImportTable, 'rows'> }
  | { type: 'rows'; rows: ImportRow[] }
  | { type: 'done' }
  | { type: 'refused'; errors: string[] }
  | { type: 'failed'; message: string };

export const ROWS_PER_MESSAGE = 1_000;

async function parse(job: ParseJob, post: (message: ParseMessage) => void): Promise<void> {
  let tables: ImportTable[];
  try {
    tables = await readImportFiles(
      job.files.map((file) => ({
        name: file.name,
        data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength),
      })),
      job.options,
    );
  } catch (error) {
    if (error instanceof ImportReadError) post({ type: 'refused', errors: error.errors });
    else post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  for (const { rows, ...head } of tables) {
    post({ type: 'table', table: head });
    for (let start = 0; start < rows.length; start += ROWS_PER_MESSAGE)
      post({ type: 'rows', rows: rows.slice(start, start + ROWS_PER_MESSAGE) });
  }
  post({ type: 'done' });
}

// One job at a time: the pool (read-in-worker.ts) sends the next only after `done`, `refused`
// or `failed`.
if (parentPort) {
  const port = parentPort;
  port.on('message', (job: ParseJob) => {
    void parse(job, (message) => port.postMessage(message));
  });
}
