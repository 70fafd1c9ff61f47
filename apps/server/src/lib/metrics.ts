import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SqlExecutor } from '../db/client.js';

/**
 * The process's Prometheus metrics (ADR 056), served at /metrics to the operator only. One
 * registry per process: counters add up whatever app counted them. What is read from a database
 * or a pool at scrape time (pool use, job queue depth) comes from the sources each built app
 * registers while it runs (tests build several apps in one process).
 */
export const registry = new Registry();

/** Paths that are not routes (unknown addresses) are counted under one label, never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export const httpRequests = new Counter({
  name: 'portal_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'Time from the request arriving to its answer sent, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const signInFailures = new Counter({
  name: 'portal_sign_in_failures_total',
  help: 'Refused sign-ins: wrong credentials (reason="credentials") or throttled (reason="throttled"), by route',
  labelNames: ['route', 'reason'] as const,
  registers: [registry],
});

export const hl7Messages = new Counter({
  name: 'portal_hl7_messages_total',
  help: 'HL7 messages received from the laboratory, by the ACK code answered (AA accepted, AE/AR refused)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'portal_job_failures_total',
  help: 'Background job runs that threw (pg-boss retries them), by queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const importDuration = new Histogram({
  name: 'portal_import_duration_seconds',
  help: 'Duration of data import requests (POST /api/data_import/:mode), by status',
  labelNames: ['status'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

export const reportDuration = new Histogram({
  name: 'portal_report_duration_seconds',
  help: 'Duration of report generation requests (POST /api/generate_reports), by status',
  labelNames: ['status'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

/** What a running app lets the scrape read: its connection pool (PostgreSQL) and job queue. */
export interface MetricsSource {
  pool: pg.Pool | null;
  /** The job queue's database, or null when the app runs no queue. */
  jobs: SqlExecutor | null;
}

const sources = new Set<MetricsSource>();

/** Adds a running app's pool and queue to the scrape; the returned function removes them. */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

new Gauge({
  name: 'portal_db_pool_connections',
  help: 'PostgreSQL connections of the pool: state="busy", "idle", "waiting" (requests queued for a connection) or "max"',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { pool } of sources) {
      if (!pool) continue;
      this.inc({ state: 'busy' }, pool.totalCount - pool.idleCount);
      this.inc({ state: 'idle' }, pool.idleCount);
      this.inc({ state: 'waiting' }, pool.waitingCount);
      this.inc({ state: 'max' }, pool.options.max ?? 10);
    }
  },
});

new Gauge({
  name: 'portal_jobs',
  help: 'Background jobs stored in the queue, by queue and state (created and retry are waiting to run; failed ran out of retries)',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const seen = new Set<SqlExecutor>();
    for (const { jobs } of sources) {
      if (!jobs || seen.has(jobs)) continue;
      seen.add(jobs);
      // Completed jobs are kept for a while and archived by pg-boss; they are not queue depth.
      let rows: Record<string, unknown>[];
      try {
        ({ rows } = await jobs.executeSql(
          `select name, state::text as state, count(*)::int as n from pgboss.job
            where state <> 'completed' group by name, state`,
          [],
        ));
      } catch {
        continue; // the queue's schema is not there yet, or the database is away
      }
      for (const row of rows) {
        this.inc({ queue: String(row.name), state: String(row.state) }, Number(row.n));
      }
    }
  },
});
