import { parentPort, workerData } from 'node:worker_threads';
import { readImportFiles } from './read-import-files.js';
import { NEXT, ROWS_PER_MESSAGE } from './parse-protocol.js';
import type { ParseJob, ParseMessage } from './parse-protocol.js';
import { ImportReadError } from './types.js';
import type { ImportTable } from './types.js';

async function parse(
  job: ParseJob,
  post: (message: ParseMessage) => void,
  next: () => Promise<void>,
): Promise<void> {
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
    for (let start = 0; start < rows.length; start += ROWS_PER_MESSAGE) {
      post({ type: 'rows', rows: rows.slice(start, start + ROWS_PER_MESSAGE) });
      await next();
    }
  }
  post({ type: 'done' });
}

// One job at a time: the pool (read-in-worker.ts) sends the next only after `done`, `refused`
// or `failed`.
/** The worker of read-in-worker.ts: only there does it listen (`workerData` says so). */
if (parentPort && (workerData as { portalParseWorker?: boolean } | null)?.portalParseWorker) {
  const port = parentPort;
  let wanted: (() => void) | null = null;
  port.on('message', (message: ParseJob | typeof NEXT) => {
    if (message === NEXT) {
      wanted?.();
      wanted = null;
      return;
    }
    void parse(
      message,
      (answer) => port.postMessage(answer),
      () => new Promise<void>((resolve) => (wanted = resolve)),
    );
  });
}
