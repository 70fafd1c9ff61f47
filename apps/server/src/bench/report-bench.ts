import { fork } from 'node:child_process';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { REPORT_COLUMNS } from '@portal/shared';
import type { SqlExecutor } from '../db/client.js';
import type { Database } from '../db/client.js';
import { REPORT_HEADERS, loadReportPage, reportCell } from '../modules/reports/index.js';
import type { Client } from './cases.js';
import type { DownloadAnswer, DownloadOrder } from './report-download.js';

/**
 * Issue 12's report target (`BENCH_ONLY=report`): data.xlsx of every sample with all 13 columns
 * through the API (HTTP, keyset pages from the database, the streaming writer) beside exceljs's
 * streaming writer alone writing the same number of rows from memory (a page of real rows
 * cycled), rows per second side by side (target: the API at ≥ 80 %), and the process's peak
 * RSS while the API answers (target ≤ 300 MB; the app and, on PGlite, the database share the
 * process). The download is read by a child process (report-download.ts), as by a browser on
 * another machine. Nothing is asserted.
 */

/** Biochemistry results on every sample, so that the numeric cells are not empty. */
export async function addReportResults(db: SqlExecutor) {
  await db.executeSql('alter table probes disable trigger user');
  try {
    await db.executeSql(`update probes set alt = 5 + id % 80, ast = 8 + id % 50,
      creatine = round((0.5 + (id % 90) / 100.0)::numeric, 2), bilirubine = round(((id % 20) / 10.0)::numeric, 1)
      where alt is null`);
  } finally {
    await db.executeSql('alter table probes enable trigger user');
  }
}

/** Discards what it is given, as fast as it comes. */
const sink = () =>
  new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });

/** exceljs's streaming writer alone: `rows` rows cycled from one page of the real data. */
async function writerAlone(db: Database, rows: number): Promise<number> {
  const page = await loadReportPage(db, 0, 2_000);
  const values = page.map((source) => REPORT_COLUMNS.map((column) => reportCell(source, column)));
  const started = performance.now();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink(),
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Raport');
  sheet.columns = REPORT_COLUMNS.map((column) => ({ header: REPORT_HEADERS[column], key: column }));
  for (let i = 0; i < rows; i++) sheet.addRow(values[i % values.length]!).commit();
  sheet.commit();
  await workbook.commit();
  return rows / ((performance.now() - started) / 1000);
}

export async function measureReport(
  db: Database,
  client: Client,
  rows: number,
  log: (line: string) => void,
): Promise<void> {
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  let bytes = 0;
  const download = async () => {
    const child = fork(new URL('./report-download.js', import.meta.url), { stdio: 'inherit' });
    try {
      const order: DownloadOrder = {
        url: `${client.baseUrl}/api/generate_reports`,
        headers: { ...client.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ columns: REPORT_COLUMNS }),
      };
      const answer = await new Promise<DownloadAnswer>((resolve, reject) => {
        child.once('message', (message) => resolve(message as DownloadAnswer));
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`the download client exited with ${code}`)));
        child.send(order);
      });
      if ('error' in answer) throw new Error(answer.error);
      bytes = answer.bytes;
      return rows / (answer.ms / 1000);
    } finally {
      child.kill();
    }
  };
  const apiRate = await download().finally(() => clearInterval(sampler));
  const alone = await writerAlone(db, rows);
  const mb = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MB`;
  log(
    `  report of ${rows} rows × 13 columns (${mb(bytes)}): API ${apiRate.toFixed(0)} rows/s, ` +
      `exceljs writer alone ${alone.toFixed(0)} rows/s → ${((apiRate / alone) * 100).toFixed(0)} % ` +
      `(target ≥ 80 %); RSS before ${mb(baseRss)}, peak ${mb(peakRss)} (target ≤ 300 MB)`,
  );
}
