import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { columnNames, examplePatients } from '../modules/imports/index.js';
import type { BenchDatabase } from './databases.js';
import { importRefs } from './import-bench.js';
import type { HealthOrder, HealthResult, Poll } from './health-worker.js';
import { percentile } from './stats.js';

const MB = 1024 * 1024;
/** The largest accepted patients file: the readers' limit of 50,000 data rows per table. */
const ACCEPTED_PATIENTS = Number(process.env.BENCH_IMPORT_HEALTH_PATIENTS ?? 50_000);
const INTERVAL_MS = 20;
const FLOOR_MS = 5_000;

/** A patients csv of `count` rows, as the template's columns (distinct PESELs and phones). */
function patientsCsv(
  count: number,
  refs: { unit_id: number; doctor_id: number; group_id: number; subgroup_id: number; dose: number },
): Buffer {
  const columns = columnNames('patient_data');
  const lines = [columns.join(',')];
  for (const row of examplePatients(count, refs))
    lines.push(columns.map((column) => String(row[column] ?? '')).join(','));
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The largest patients csv under 20 MB (the per-file limit): three times the row limit. */
function twentyMegabyteCsv(refs: Parameters<typeof patientsCsv>[1]): Buffer {
  const sample = patientsCsv(1_000, refs);
  const rows = Math.floor(((20 * MB - 1024) / sample.length) * 1_000);
  return patientsCsv(rows, refs).subarray(0, 20 * MB - 1);
}

interface PhaseMark {
  at: number;
  msg: string;
}

function summary(all: Poll[]): string {
  const polls = all.filter((p) => p.status === 200);
  const failed = all.length - polls.length;
  const sorted = polls.map((p) => p.ms).sort((a, b) => a - b);
  const fixed = (n: number) => n.toFixed(1);
  return (
    `n ${sorted.length}, p50 ${fixed(percentile(sorted, 50))} ms, p95 ${fixed(percentile(sorted, 95))} ms, ` +
    `p99 ${fixed(percentile(sorted, 99))} ms, max ${fixed(sorted[sorted.length - 1] ?? NaN)} ms` +
    (failed ? `, ${failed} failed` : '')
  );
}

/** The polls sent in each phase of the import, told apart by the import's own log lines. */
function byPhase(result: HealthResult, marks: PhaseMark[]): string[] {
  const at = (msg: string) => marks.find((m) => m.msg === msg)?.at;
  const end = result.upload.startedAt + result.upload.ms;
  const reading = at('import: reading files');
  const read = at('import: files read');
  const writing = at('import: writing a batch');
  const written = at('import: batch written');
  const phases: [string, number, number | undefined][] = [
    ['upload (multipart)', result.upload.startedAt, reading ?? end],
    ['read (worker)', reading ?? end, read ?? end],
    ['checks (server thread)', read ?? end, writing ?? end],
    ['write (transaction)', writing ?? end, written ?? end],
    ['commit and answer', written ?? end, end],
  ];
  const lines: string[] = [];
  for (const [name, from, to] of phases) {
    if (to === undefined || to <= from) continue;
    const polls = result.during.filter((p) => p.at >= from && p.at < to);
    if (polls.length === 0) continue;
    lines.push(`    ${name.padEnd(26)} ${((to - from) / 1000).toFixed(1)} s: ${summary(polls)}`);
  }
  return lines;
}

async function measureOne(
  baseUrl: string,
  headers: Record<string, string>,
  marks: PhaseMark[],
  label: string,
  file: Buffer,
): Promise<string[]> {
  marks.length = 0;
  const bytes = new Uint8Array(file);
  const order: HealthOrder = {
    baseUrl,
    headers,
    intervalMs: INTERVAL_MS,
    floorMs: FLOOR_MS,
    upload: { path: '/api/data_import/patient_data', fileName: 'pacjenci.csv', bytes },
  };
  const worker = new Worker(new URL('./health-worker.js', import.meta.url), {
    workerData: order,
    transferList: [bytes.buffer],
  });
  try {
    const result = await new Promise<HealthResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const answer = result.upload.body.replace(/\s+/g, ' ').slice(0, 120);
    return [
      `${label} (${(file.length / MB).toFixed(1)} MB): ${result.upload.status} in ${(result.upload.ms / 1000).toFixed(1)} s — ${answer}`,
      `  GET /api/health every ${INTERVAL_MS} ms, no import (floor): ${summary(result.floor)}`,
      `  GET /api/health during the import:            ${summary(result.during)}`,
      ...byPhase(result, marks),
    ];
  } finally {
    await worker.terminate();
  }
}

/**
 * `BENCH_ONLY=import-health` (issue 20): `GET /api/health` polled every 20 ms from another
 * thread, first with no import (the floor), then while an upload of patients is read, checked
 * and written: a 20 MB csv (the per-file limit; read whole by a worker, then refused for holding
 * more than 50,000 rows) and the largest accepted file (50,000 patients). The polls are split by
 * the phases the import logs, which tells which phase holds the server's thread.
 */
export async function measureImportHealth(
  db: BenchDatabase,
  admin: { login: string; password: string },
  log: (line: string) => void,
): Promise<void> {
  const marks: PhaseMark[] = [];
  const app = await buildApp({
    db: db.handle.db,
    config: loadConfig({ LOG_LEVEL: 'info' }, null),
    logStream: {
      write(line: string) {
        if (!line.includes('"msg":"import: ')) return;
        const { msg, time } = JSON.parse(line) as { msg: string; time: number };
        marks.push({ msg, at: time });
      },
    },
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const signIn = await fetch(`${baseUrl}/api/auth/login/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const refs = await importRefs(db);
    log(
      `  load average at start: ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
    for (const line of await measureOne(
      baseUrl,
      headers,
      marks,
      '20 MB patients csv, refused after reading',
      twentyMegabyteCsv(refs),
    ))
      log(`  ${line}`);
    for (const line of await measureOne(
      baseUrl,
      headers,
      marks,
      `${ACCEPTED_PATIENTS} patients csv, accepted`,
      patientsCsv(ACCEPTED_PATIENTS, refs),
    ))
      log(`  ${line}`);
    log(
      `  load average at end: ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await app.close();
  }
}
