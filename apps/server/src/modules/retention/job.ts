import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { executeRetentionRun } from './service.js';

/** The job's name; `{run_id}` names the queued run (ADR 059). */
export const RETENTION_JOB = 'retention.run';

interface JobLog {
  info(details: object, message: string): void;
}

/** Registers the retention job: pg-boss gives each sent run to one node, once. */
export function registerRetentionJob(jobs: JobQueue, db: Database, log: JobLog): void {
  jobs.handle<{ run_id?: unknown }>(RETENTION_JOB, async (data) => {
    if (!Number.isSafeInteger(data.run_id)) return;
    const run = await executeRetentionRun(db, Number(data.run_id));
    // Counts only: never which patients.
    log.info({ run: run.id, status: run.status, anonymised: run.done }, 'retention run finished');
  });
}
