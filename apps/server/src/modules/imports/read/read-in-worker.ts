import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import { NEXT } from './parse-protocol.js';
import type { ParseJob, ParseMessage } from './parse-protocol.js';
import { ImportReadError } from './types.js';
import type { ImportTable, ReadOptions, UploadedFile } from './types.js';

/**
 * From the build, the worker is parse-worker.js beside this file in dist. Run from the
 * TypeScript sources (tsx, Vitest), this module is a .ts file and so is the worker's: the worker
 * then starts with a one-line script that imports it through tsx.
 */
function workerEntry(): { entry: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts'))
    return { entry: new URL('./parse-worker.js', import.meta.url), eval: false };
  // tsx's own API for importing one TypeScript module (its `--import tsx` loader, given in a
  // worker's execArgv or imported by this script, does not reach the worker's imports on Node 20).
  const require = createRequire(import.meta.url);
  const api = pathToFileURL(
    path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const worker = new URL('./parse-worker.ts', import.meta.url).href;
  return {
    entry: `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(worker)}, ${JSON.stringify(import.meta.url)}));`,
    eval: true,
  };
}
const WORKER = workerEntry();

export interface ParsePoolOptions {
  /** Most uploads read at once; more wait their turn (ADR 036). */
  size: number;
  /** An idle worker is ended after this long (ms); the next import starts a new one. */
  idleMs: number;
  /** A read taking longer (ms) is stopped and the upload refused. */
  timeoutMs: number;
  /** The worker's heap: a file that needs more ends the worker, not the server. */
  resourceLimits: ResourceLimits;
}

/**
 * Two workers on the two-core machines the portal runs on: one import reads while another
 * waits for its database checks, and the server's own thread keeps a core. Reading the largest
 * legal upload (ten files, 100 MB unpacked) stays well under 1 GB of heap.
 */
export const PARSE_POOL_DEFAULTS: ParsePoolOptions = {
  size: 2,
  idleMs: 60_000,
  timeoutMs: 120_000,
  resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 },
};

/** Where a refusal that concerns the whole upload is filed in the errors list. */
function uploadLabel(files: UploadedFile[]): string {
  return files.length === 1 ? files[0]!.name : 'Przesłane pliki';
}

/** The bytes to send: the buffer itself when it owns its memory (moved, not copied). */
function outgoing(files: UploadedFile[]): { job: ParseJob['files']; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const job = files.map(({ name, data }) => {
    const whole =
      data.buffer instanceof ArrayBuffer &&
      data.byteOffset === 0 &&
      data.byteLength === data.buffer.byteLength &&
      !transfer.includes(data.buffer);
    if (whole) transfer.push(data.buffer);
    // A slice of Node's shared pool (small buffers) is copied by the structured clone.
    return { name, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  });
  return { job, transfer };
}

interface PooledWorker {
  worker: Worker;
  idleTimer: NodeJS.Timeout | null;
}

/** Something the pool reports to the server's log: never a file's content. */
export type ParseLog = (details: object, message: string) => void;

/**
 * A small pool of worker threads that read uploads (ADR 036): each worker reads one upload at
 * a time, so the server's event loop is free while a 20 MB file is parsed. Workers start on the
 * first import, are reused (starting one costs loading exceljs, SheetJS and the XML parser) and
 * end when idle; one that crashes, runs out of memory or times out is discarded and its upload
 * refused with a message, and the server lives on.
 */
export class ParsePool {
  private readonly idle: PooledWorker[] = [];
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: ParsePoolOptions = PARSE_POOL_DEFAULTS) {}

  /**
   * The tables of an upload, read in a worker. The files' buffers are moved to the worker when
   * they own their memory: the caller must not read `files[i].data` afterwards.
   *
   * @throws ImportReadError with every problem found, or the reason the read was stopped.
   */
  async read(
    files: UploadedFile[],
    readOptions?: ReadOptions,
    log: ParseLog = () => undefined,
  ): Promise<ImportTable[]> {
    if (this.busy >= this.options.size) await new Promise<void>((go) => this.waiting.push(go));
    this.busy += 1;
    try {
      const pooled = this.idle.pop() ?? this.spawn();
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
      pooled.idleTimer = null;
      return await this.run(pooled, files, readOptions, log);
    } finally {
      this.busy -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Ends every idle worker (a busy one ends when its read is done). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(
      idle.map((pooled) => {
        if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
        return pooled.worker.terminate();
      }),
    );
  }

  private spawn(): PooledWorker {
    const worker = new Worker(WORKER.entry, {
      eval: WORKER.eval,
      workerData: { portalParseWorker: true },
      execArgv: [],
      resourceLimits: this.options.resourceLimits,
      // The worker's stdout and stderr are the server's (a reader's stray warning stays visible).
      stdout: false,
      stderr: false,
    });
    const pooled: PooledWorker = { worker, idleTimer: null };
    // An error after a read (an idle worker's stray fault) must not go unheard: an 'error'
    // event without a listener would end the server. The worker is discarded.
    const discard = (): void => {
      const at = this.idle.indexOf(pooled);
      if (at >= 0) this.idle.splice(at, 1);
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    };
    worker.on('error', discard);
    worker.on('exit', discard);
    return pooled;
  }

  private park(pooled: PooledWorker): void {
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(pooled);
      if (at >= 0) this.idle.splice(at, 1);
      void pooled.worker.terminate();
    }, this.options.idleMs);
    pooled.idleTimer.unref();
    this.idle.push(pooled);
  }

  private run(
    pooled: PooledWorker,
    files: UploadedFile[],
    readOptions: ReadOptions | undefined,
    log: ParseLog,
  ): Promise<ImportTable[]> {
    const { worker } = pooled;
    const label = uploadLabel(files);
    worker.ref();
    return new Promise<ImportTable[]>((resolve, reject) => {
      const tables: ImportTable[] = [];
      let settled = false;
      const finish = (healthy: boolean, error: Error | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (healthy) this.park(pooled);
        else void worker.terminate();
        if (error) reject(error);
        else resolve(tables);
      };
      const refuse = (healthy: boolean, message: string): void =>
        finish(healthy, new ImportReadError([`${label}: ${message}`]));
      const onMessage = (message: ParseMessage): void => {
        switch (message.type) {
          case 'table':
            tables.push({ ...message.table, rows: [] });
            return;
          case 'rows': {
            const rows = tables[tables.length - 1]!.rows;
            for (const row of message.rows) rows.push(row);
            // The next chunk after other waiting work (ADR 036).
            setImmediate(() => {
              if (!settled) worker.postMessage(NEXT);
            });
            return;
          }
          case 'done':
            finish(true, null);
            return;
          case 'refused':
            finish(true, new ImportReadError(message.errors));
            return;
          case 'failed':
            // A reader's own fault: the message may quote the file, so only that it happened
            // is logged.
            log({ files: files.length }, 'import: a file reader failed');
            refuse(false, 'nie udało się odczytać pliku (uszkodzony lub nieobsługiwany plik)');
            return;
        }
      };
      const onError = (error: Error & { code?: string }): void => {
        const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        log(
          { files: files.length, code: error.code ?? error.name },
          'import: the file reader stopped',
        );
        refuse(
          false,
          outOfMemory
            ? 'odczyt pliku wymagał zbyt wiele pamięci (plik jest zbyt duży lub spreparowany)'
            : 'nie udało się odczytać pliku (uszkodzony lub nieobsługiwany plik)',
        );
      };
      const onExit = (code: number): void => {
        log({ files: files.length, code }, 'import: the file reader ended unexpectedly');
        refuse(false, 'nie udało się odczytać pliku (uszkodzony lub nieobsługiwany plik)');
      };
      const timer = setTimeout(() => {
        log({ files: files.length }, 'import: the file reader took too long');
        refuse(
          false,
          `odczyt pliku trwał zbyt długo (ponad ${Math.ceil(this.options.timeoutMs / 1000)} s)`,
        );
      }, this.options.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      const { job, transfer } = outgoing(files);
      worker.postMessage({ files: job, options: readOptions } satisfies ParseJob, transfer);
    });
  }
}

let shared: ParsePool | null = null;

/** The server's pool, made on the first import. */
export function parsePool(): ParsePool {
  shared ??= new ParsePool();
  return shared;
}

/** Puts another pool in the server's place (tests with small limits); gives back the former. */
export function replaceParsePool(pool: ParsePool | null): ParsePool | null {
  const former = shared;
  shared = pool;
  return former;
}
