import { Worker } from 'node:worker_threads';
import type { SqlExecutor } from '../db/client.js';
import { replay } from './capture.js';
import type { LoadOrder, LoadResult } from './load-worker.js';
import type { BenchDatabase } from './databases.js';
import { timeRounds } from './stats.js';
import type { Rounds, Timing } from './stats.js';
import { httpRequest, keepAlive } from './http-client.js';
import type { HttpAnswer } from './http-client.js';

export interface BenchCase {
  name: string;
  url: string;
  /** Only reported when the endpoint exists (the picker comes with another part of issue 8). */
  optional?: boolean;
}

export interface CaseResult {
  name: string;
  url: string;
  status: number;
  /** How many rows the answer held, and its total_count / total_kind if it had them. */
  rows: number | null;
  total: string | null;
  statements: number;
  api: Timing | null;
  sql: Timing | null;
  /** The same request through `app.inject` (no socket), when the client offers it. */
  inProcess?: Timing | null;
}

/** Ids the filter case names, read from the seeded data (schema only, no list internals). */
export async function filterIds(db: SqlExecutor) {
  const one = async (text: string) => Number((await db.executeSql(text)).rows[0]?.id);
  const doctors = await db.executeSql('select id from doctors order by id limit 3');
  return {
    group: await one('select id from inclusion_criteria_groups order by nr offset 1 limit 1'),
    medicine: await one(
      'select medicine_id as id from patient_medicines group by 1 order by count(*) desc limit 1',
    ),
    doctors: doctors.rows.map((r) => Number(r.id)).join(','),
  };
}

export function benchCases(ids: { group: number; medicine: number; doctors: string }) {
  const search = (term: string) =>
    `/api/patients?limit=20&offset=0&search=${encodeURIComponent(term)}`;
  const cases: BenchCase[] = [
    { name: 'patients, plain page', url: '/api/patients?limit=20&offset=0' },
    { name: 'search "kowal"', url: search('kowal') },
    {
      name: 'filter group + medicine + doctors',
      url: `/api/patients?limit=20&offset=0&groups=${ids.group}&medicines=${ids.medicine}&doctors=${ids.doctors}`,
    },
    { name: 'offset 99,000', url: '/api/patients?limit=20&offset=99000' },
    {
      name: 'sort by surname, page 1',
      url: '/api/patients?limit=20&offset=0&order_by=surname&order_direction=asc',
    },
    {
      name: 'sort by group, page 1',
      url: '/api/patients?limit=20&offset=0&order_by=group&order_direction=asc',
    },
    { name: 'audit list, page 1', url: '/api/audit_trial?page=1&limit=20' },
    { name: 'picker "kowal"', url: '/api/patients/options?search=kowal', optional: true },
    { name: 'overdue visits, page 1', url: '/api/visits/overdue?limit=20&page=1', optional: true },
    { name: 'bad: search "%"', url: search('%') },
    { name: 'bad: search "_"', url: search('_') },
    { name: 'bad: search "\\"', url: search('\\') },
    { name: 'bad: search "ł"', url: search('ł') },
    { name: 'bad: offset past the end', url: '/api/patients?limit=20&offset=1000000' },
  ];
  return cases;
}

export interface Client {
  baseUrl: string;
  headers: Record<string, string>;
  /**
   * The same GET through the app in this process without a socket (`app.inject`), answering
   * its status: the API's own work (routing, sign-in check, validation, SQL, serialising)
   * without the loopback connection and the HTTP parsing every request pays alike.
   */
  inject?: (url: string) => Promise<number>;
}

const agent = keepAlive();

/** One GET through real HTTP (keep-alive); the body is read whole, as a browser would. */
export function get(client: Client, url: string): Promise<HttpAnswer> {
  return httpRequest(agent, new URL(client.baseUrl + url), { headers: client.headers });
}

function describe(body: string): { rows: number | null; total: string | null } {
  try {
    const parsed = JSON.parse(body) as {
      data?: unknown[];
      total_count?: number;
      total?: number;
      total_kind?: string;
    };
    const total = parsed.total_count ?? parsed.total;
    return {
      rows: Array.isArray(parsed.data) ? parsed.data.length : null,
      total:
        total === undefined ? null : `${total}${parsed.total_kind ? ` ${parsed.total_kind}` : ''}`,
    };
  } catch {
    return { rows: null, total: null };
  }
}

/**
 * Times one case through the API, then the statements the API sent for it (captured by the
 * query logger on a first call) replayed through the driver with the same parameters.
 */
export async function measureCase(
  db: BenchDatabase,
  client: Client,
  benchCase: BenchCase,
  rounds: Rounds,
): Promise<CaseResult> {
  let first = { status: 0, body: '' };
  const batches = await db.capture.during(async () => {
    first = await get(client, benchCase.url);
  });
  const base = {
    name: benchCase.name,
    url: benchCase.url,
    status: first.status,
    ...describe(first.body),
  };
  // Before the picker lands, /api/patients/options is read as /api/patients/:id (422) or 404.
  if (benchCase.optional && first.status !== 200) {
    return { ...base, statements: 0, api: null, sql: null };
  }
  if (process.env.BENCH_SHOW_SQL) {
    for (const [i, batch] of batches.entries()) {
      for (const s of batch) console.log(`    [${i}] ${s.text} -- ${JSON.stringify(s.params)}`);
    }
  }
  const api = await timeRounds(rounds, async () => {
    const { status } = await get(client, benchCase.url);
    if (status !== first.status)
      throw new Error(`${benchCase.url}: ${status}, first ${first.status}`);
  });
  const sql = await timeRounds(rounds, () => replay(db.handle, batches));
  const inject = client.inject;
  const inProcess = inject
    ? await timeRounds(rounds, async () => {
        const status = await inject(benchCase.url);
        if (status !== first.status)
          throw new Error(`${benchCase.url} in process: ${status}, first ${first.status}`);
      })
    : null;
  return { ...base, statements: batches.flat().length, api, sql, inProcess };
}

/**
 * Requests per second of `clients` concurrent clients, each sending the next GET as soon as its
 * last answer is read, over keep-alive connections, for `ms` milliseconds. The clients run in a
 * worker thread (load-worker.ts), so the server's event loop serves requests only.
 */
export async function throughput(
  client: Client,
  url: string,
  clients: number,
  ms: number,
): Promise<LoadResult> {
  const order: LoadOrder = { baseUrl: client.baseUrl, headers: client.headers, url, clients, ms };
  const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: order });
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      worker.once('message', (result: LoadResult) => resolve(result));
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}
