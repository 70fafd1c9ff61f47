import type { Logger } from 'drizzle-orm';
import type { SqlExecutor } from '../db/client.js';

export interface Statement {
  text: string;
  params: unknown[];
}

/**
 * Records the statements Drizzle sends while capturing is on, in batches: statements sent
 * before the event loop turns (a `Promise.all` of a page and its count) form one batch, which
 * the replay runs concurrently as the API did; batches run one after another. PGlite answers
 * within one turn, so a request's statements there form one batch: it runs them one at a time
 * anyway, being one connection.
 */
export class QueryCapture implements Logger {
  private batches: Statement[][] | null = null;
  private open: Statement[] | null = null;

  logQuery(query: string, params: unknown[]): void {
    if (!this.batches) return;
    if (!this.open) {
      const batch: Statement[] = [];
      this.open = batch;
      this.batches.push(batch);
      setImmediate(() => {
        if (this.open === batch) this.open = null;
      });
    }
    this.open.push({ text: query, params: [...params] });
  }

  /** Runs `work` and returns the statements it sent. */
  async during(work: () => Promise<void>): Promise<Statement[][]> {
    this.batches = [];
    this.open = null;
    try {
      await work();
      return this.batches;
    } finally {
      this.batches = null;
      this.open = null;
    }
  }
}

/** Sends the captured statements again through the driver, with the same parameters. */
export async function replay(db: SqlExecutor, batches: Statement[][]): Promise<void> {
  for (const batch of batches) {
    await Promise.all(batch.map((s) => db.executeSql(s.text, s.params)));
  }
}
