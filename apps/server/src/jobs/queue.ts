import PgBoss from 'pg-boss';
import type { Database, SqlExecutor } from '../db/client.js';
import { jobFailures } from '../lib/metrics.js';
import { isStudyLocked } from '../lib/study-lock.js';

/** A job's data: a small JSON object (ids, not rows; the handler reads the rest itself). */
export type JobData = Record<string, unknown>;

export type JobHandler<T extends JobData = JobData> = (
  data: T,
  job: { id: string; name: string },
) => Promise<void>;

export interface SendOptions {
  /** Run no earlier than this. */
  startAfter?: Date;
  /** At most one waiting job with this key per queue (e.g. one refresh per shipment). */
  singletonKey?: string;
  /** How often a failing job is tried again (pg-boss default 2). */
  retryLimit?: number;
}

export interface JobQueueOptions {
  /**
   * The database to keep jobs in: the portal's own (PGlite or PostgreSQL), its raw SQL for
   * pg-boss and `db` for the portal's own reads (the study lock).
   */
  db: SqlExecutor & { db: Database };
  /** How often an idle worker looks for new jobs; pg-boss's default is 2 s. */
  pollingIntervalSeconds?: number;
}

interface ErrorLog {
  error(details: object, message: string): void;
}

/**
 * Background jobs stored in PostgreSQL with pg-boss (ADR 009), so that they survive restarts and
 * run once when several API nodes share one database. pg-boss runs on the portal's own
 * connection through its `db` option, which is what lets it work on PGlite too.
 *
 * Modules register handlers by name at build time; the app starts the queue when it is ready and
 * stops it on close, before the database closes. Without `options` (tests that do not test jobs)
 * nothing starts and `send` refuses, so no test pays for a queue it does not use.
 */
export class JobQueue {
  readonly #options: JobQueueOptions | null;
  readonly #log: ErrorLog;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #queues = new Set<string>();
  readonly #schedules = new Map<string, string>();
  readonly #unschedules = new Set<string>();
  #boss: PgBoss | null = null;

  constructor(options: JobQueueOptions | null, log: ErrorLog) {
    this.#options = options;
    this.#log = log;
  }

  /** Whether jobs are sent and worked on (the queue was configured and has started). */
  get running(): boolean {
    return this.#boss !== null;
  }

  /** Names the handler of a job; one handler per name. Registered after start it works at once. */
  handle<T extends JobData>(name: string, handler: JobHandler<T>): void {
    if (this.#handlers.has(name)) throw new Error(`job ${name} already has a handler`);
    this.#handlers.set(name, handler as JobHandler);
    if (this.#boss) {
      this.#work(this.#boss, name, handler as JobHandler).catch((error: unknown) =>
        this.#log.error({ err: error, job: name }, 'job worker failed to start'),
      );
    }
  }

  /**
   * Runs job `name` (with `{}`) on a cron schedule in Warsaw time. pg-boss keeps the schedule in
   * the database and sends each run once however many servers run the queue. Registered at build
   * time; written when the queue starts (again on every start, so a changed cron replaces the old).
   */
  schedule(name: string, cron: string): void {
    this.#schedules.set(name, cron);
    if (this.#boss) {
      this.#schedule(this.#boss, name, cron).catch((error: unknown) =>
        this.#log.error({ err: error, job: name }, 'job schedule failed'),
      );
    }
  }

  /**
   * Removes a stored schedule of `name` when the queue starts: a job switched off by
   * configuration (e.g. LAB_SIMULATOR) must not keep being sent by the cron an earlier start kept.
   */
  unschedule(name: string): void {
    this.#schedules.delete(name);
    this.#unschedules.add(name);
    if (this.#boss) {
      this.#boss
        .unschedule(name)
        .catch((error: unknown) =>
          this.#log.error({ err: error, job: name }, 'job unschedule failed'),
        );
    }
  }

  /** The schedules stored in the database (name and cron). */
  async schedules(): Promise<{ name: string; cron: string }[]> {
    const boss = this.#boss;
    if (!boss) return [];
    return (await boss.getSchedules()).map(({ name, cron }) => ({ name, cron }));
  }

  /** Stores a job; it runs once a handler for its name is working, even after a restart. */
  async send<T extends JobData>(name: string, data: T, options: SendOptions = {}): Promise<string> {
    const boss = this.#boss;
    if (!boss) throw new Error('the job queue is not running (buildApp without jobs)');
    await this.#ensureQueue(boss, name);
    const id = await boss.send(name, data, options);
    // null only for a duplicate singletonKey: the waiting job stands for this one.
    return id ?? '';
  }

  /**
   * Creates or upgrades pg-boss's schema without starting any worker: the migration role's step
   * when the app's role may not create schemas (db/roles.ts). start() then finds it current.
   */
  static async install(db: SqlExecutor): Promise<void> {
    const boss = new PgBoss({ db, migrate: true, supervise: false, schedule: false });
    await boss.start();
    await boss.stop({ graceful: false, close: false });
  }

  /** Creates pg-boss's tables on first use (its own `pgboss` schema) and starts the workers. */
  async start(): Promise<void> {
    if (!this.#options || this.#boss) return;
    const boss = new PgBoss({
      db: this.#options.db,
      // Its SQL is parameterised; the executor runs scripts without values (schema creation).
      migrate: true,
    });
    boss.on('error', (error: unknown) => this.#log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.#boss = boss;
    // Queues one after another: pg-boss creates each queue's table, and on PostgreSQL several
    // creations at once deadlock on its catalog (seen with a dozen queues).
    for (const name of this.#handlers.keys()) await this.#ensureQueue(boss, name);
    await Promise.all(
      [...this.#handlers].map(([name, handler]) => this.#work(boss, name, handler)),
    );
    for (const [name, cron] of this.#schedules) await this.#schedule(boss, name, cron);
    for (const name of this.#unschedules) await boss.unschedule(name);
  }

  /**
   * Stops fetching, waits for running handlers (up to 30 s), and leaves the connection open: the
   * database is closed by its owner afterwards.
   */
  async stop(): Promise<void> {
    const boss = this.#boss;
    if (!boss) return;
    this.#boss = null;
    await boss.stop({ graceful: true, wait: true, close: false, timeout: 30_000 });
  }

  async #ensureQueue(boss: PgBoss, name: string): Promise<void> {
    if (this.#queues.has(name)) return;
    // Two nodes starting at once may create queues at once; PostgreSQL then breaks the deadlock
    // by failing one of them (40P01), which simply tries again (ADR 056).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await boss.createQueue(name);
        break;
      } catch (error) {
        const deadlock = (error as { code?: unknown } | null)?.code === '40P01';
        if (!deadlock || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
      }
    }
    this.#queues.add(name);
  }

  async #schedule(boss: PgBoss, name: string, cron: string): Promise<void> {
    await this.#ensureQueue(boss, name);
    await boss.schedule(name, cron, {}, { tz: 'Europe/Warsaw' });
  }

  async #studyLocked(): Promise<boolean> {
    const handle = this.#options?.db;
    return handle ? isStudyLocked(handle.db) : false;
  }

  async #work(boss: PgBoss, name: string, handler: JobHandler): Promise<void> {
    await this.#ensureQueue(boss, name);
    const pollingIntervalSeconds = this.#options?.pollingIntervalSeconds ?? 2;
    await boss.work<JobData>(name, { pollingIntervalSeconds }, async (jobs) => {
      // While the study is locked (ADR 048) jobs write nothing: each is skipped (completed
      // without running); scheduled ones come again at their next time.
      if (await this.#studyLocked()) return;
      // batchSize is 1: one job per call; a throw marks it failed and pg-boss retries it.
      for (const job of jobs) {
        try {
          await handler(job.data, { id: job.id, name: job.name });
        } catch (error) {
          jobFailures.inc({ queue: name });
          throw error;
        }
      }
    });
  }
}
