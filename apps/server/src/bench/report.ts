import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { CaseResult } from './cases.js';
import type { SeedResult } from './seed.js';
import type { ShellBytes } from './shell.js';
import type { Timing } from './stats.js';
import { formatVisits } from './visits-bench.js';
import type { VisitsBenchResult } from './visits-bench.js';

export const RESULTS_FILE = fileURLToPath(
  new URL('../../../../bench-results.json', import.meta.url),
);

export interface DatabaseRun {
  label: string;
  seed: SeedResult;
  cases: CaseResult[];
  throughput: {
    clients: number;
    seconds: number;
    requests: number;
    failed: number;
    perSecond: number;
  };
  /** Issue 9: the slots endpoint against its statements, and booking under 16 clients. */
  visits?: VisitsBenchResult;
}

export interface BenchResults {
  date: string;
  commit: string | null;
  runs: DatabaseRun[];
  shell: { bytes: ShellBytes | null; note: string };
  coldStartMs: number[];
  totalSeconds: number;
  /** The machine's 1-minute load average at start and end: other work skews every number. */
  loadAverage: { start: number; end: number; cpus: number };
}

const ms = (t: Timing | null) => (t ? `${t.p50.toFixed(1)} / ${t.p95.toFixed(1)}` : 'n/a');
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The closing table: per case and database p50 / p95 in ms, API/SQL (p95) and PGlite/PG (API p95). */
export function formatResults(results: BenchResults): string {
  const [first] = results.runs;
  if (!first) return 'no runs';
  const header = ['case', 'status'];
  for (const run of results.runs) {
    header.push(`${run.label} API p50/p95`, `${run.label} SQL p50/p95`, 'API/SQL');
  }
  const pg = results.runs.find((r) => r.label === 'PostgreSQL');
  const lite = results.runs.find((r) => r.label === 'PGlite');
  if (pg && lite) header.push('PGlite/PG');
  const rows = first.cases.map((c, index) => {
    const row = [c.name, `${c.status}${c.total ? ` (${c.total})` : ''}`];
    for (const run of results.runs) {
      const r = run.cases[index]!;
      row.push(ms(r.api), ms(r.sql), ratio(r.api?.p95, r.sql?.p95));
    }
    if (pg && lite) row.push(ratio(lite.cases[index]?.api?.p95, pg.cases[index]?.api?.p95));
    return row;
  });
  const lines = [table(header, rows), ''];
  for (const run of results.runs) {
    const t = run.throughput;
    lines.push(
      `${run.label}: ${t.perSecond.toFixed(0)} requests/s at ${t.clients} concurrent clients on the plain page ` +
        `(${t.requests} in ${t.seconds.toFixed(1)} s, ${t.failed} failed); seeded ${run.seed.patients} patients, ` +
        `${run.seed.patientMedicines} medicines, ${run.seed.auditEntries} audit entries in ${run.seed.seconds.toFixed(0)} s`,
    );
    if (run.visits) lines.push(...formatVisits(run.label, run.visits));
  }
  if (pg && lite) {
    lines.push(
      `throughput PGlite/PG: ${ratio(pg.throughput.perSecond, lite.throughput.perSecond)} fewer requests/s`,
    );
  }
  const bytes = results.shell.bytes;
  lines.push(
    bytes
      ? `login route: ${bytes.js_transferred_bytes} B of JavaScript, ${bytes.total_transferred_bytes} B in all transferred (Chromium)`
      : `login route transferred bytes: ${results.shell.note}`,
  );
  const sorted = [...results.coldStartMs].sort((a, b) => a - b);
  lines.push(
    sorted.length
      ? `cold start, empty embedded database: ${results.coldStartMs.map((t) => t.toFixed(0)).join(', ')} ms (median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)})`
      : 'cold start: n/a',
  );
  const load = results.loadAverage;
  lines.push(
    `bench took ${results.totalSeconds.toFixed(0)} s; load average ${load.start.toFixed(1)} at start, ${load.end.toFixed(1)} at end, on ${load.cpus} CPUs`,
  );
  return lines.join('\n');
}

export async function writeResults(results: BenchResults): Promise<void> {
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}
