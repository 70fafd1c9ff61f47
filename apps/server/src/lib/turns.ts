import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * For long loops on the server's thread (an import's checks and its chunked writes, ADR 036):
 * the returned function gives the event loop a turn once `sliceMs` have passed since the last
 * one, and otherwise returns at once, so a loop of 50,000 rows lets other requests in every
 * 10 ms instead of holding them for seconds. Awaiting it inside a transaction keeps the
 * transaction: only this request's own work is paused.
 */
export function turnTaker(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}
