import { COUNT_CAP } from '@portal/shared';
import type { TotalKind } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/client.js';

/**
 * How many rows a list has, without counting a whole table on every page (ADR 021):
 * - a filtered list counts its matches only up to COUNT_CAP (`at_least` beyond: "10 000+");
 * - an unfiltered list counts exactly, unless its table is so large (ESTIMATE_FROM rows by the
 *   database's statistics) that the statistics' figure is answered instead (`estimate`);
 * - either total is remembered per list, scope and filter for TOTAL_TTL_MS, so that paging
 *   through one filter counts once; any write through this process forgets them all
 *   (`forgetListTotals`, called after every successful write request), and on PostgreSQL every
 *   other API node forgets them too before the write's answer leaves (list-totals-channel.ts,
 *   ADR 056). A node that cannot hear the other nodes remembers nothing (`rememberListTotals`).
 */
export interface ListTotal {
  total: number;
  total_kind: TotalKind;
}

export interface TotalPlan {
  /**
   * Names the list and everything that narrows it (the caller's scope and filters), never the
   * page or the sort: equal keys must mean equal totals.
   */
  key: string;
  /** The rows to count, as any select (its columns do not matter), without limit or order. */
  rows: () => { limit(limit: number): SQLWrapper } & SQLWrapper;
  /**
   * Set when nothing narrows the list: the table whose size it is, so that a very large one is
   * estimated rather than counted.
   */
  unfilteredTable?: string;
  /** Tests only: the table size from which an unfiltered total is estimated (ESTIMATE_FROM). */
  estimateFrom?: number;
}

export const TOTAL_TTL_MS = 30_000;
export const ESTIMATE_FROM = 1_000_000;
const MAX_REMEMBERED = 500;

interface Remembered {
  expires: number;
  total: Promise<ListTotal>;
}

/** One memory per database: tests open many databases in one process. */
const memories = new WeakMap<Database, Map<string, Remembered>>();

function memoryOf(db: Database): Map<string, Remembered> {
  let memory = memories.get(db);
  if (!memory) {
    memory = new Map();
    memories.set(db, memory);
  }
  return memory;
}

/** Databases whose totals are not remembered: another node's write could not be heard. */
const deaf = new WeakSet<Database>();

/** Forgets every remembered total of this database: its data has changed. */
export function forgetListTotals(db: Database): void {
  memories.get(db)?.clear();
}

/**
 * Whether totals of this database may be remembered: false while this node cannot hear other
 * nodes' writes (its LISTEN connection is lost), so that no stale total is answered meanwhile.
 */
export function rememberListTotals(db: Database, remember: boolean): void {
  if (remember) deaf.delete(db);
  else deaf.add(db);
  forgetListTotals(db);
}

async function countRows(db: Database, rows: SQLWrapper): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sql`${rows} as counted`);
  return row?.n ?? 0;
}

/**
 * The planner's idea of a table's size: the density of its last statistics times its current
 * pages, as PostgreSQL itself estimates. Null when the table was never analysed.
 */
export async function estimatedRows(db: Database, table: string): Promise<number | null> {
  const [row] = await db
    .select({
      tuples: sql<number>`reltuples::float8`,
      pages: sql<number>`relpages::float8`,
      current: sql<number>`(pg_relation_size(oid) / current_setting('block_size')::int)::float8`,
    })
    .from(sql`pg_class`)
    .where(sql`oid = to_regclass(${table})`);
  if (!row || row.tuples < 0 || row.pages <= 0) return null;
  return Math.round((row.tuples / row.pages) * Math.max(row.current, row.pages));
}

async function computeTotal(db: Database, plan: TotalPlan): Promise<ListTotal> {
  if (plan.unfilteredTable) {
    const estimate = await estimatedRows(db, plan.unfilteredTable);
    if (estimate !== null && estimate >= (plan.estimateFrom ?? ESTIMATE_FROM)) {
      return { total: estimate, total_kind: 'estimate' };
    }
    return { total: await countRows(db, plan.rows()), total_kind: 'exact' };
  }
  const n = await countRows(db, plan.rows().limit(COUNT_CAP + 1));
  return n > COUNT_CAP
    ? { total: COUNT_CAP, total_kind: 'at_least' }
    : { total: n, total_kind: 'exact' };
}

/** The list's total, remembered for TOTAL_TTL_MS (see the module's comment). */
export function listTotal(db: Database, plan: TotalPlan, now = Date.now()): Promise<ListTotal> {
  return remember(db, plan.key, () => computeTotal(db, plan), now);
}

function remember(
  db: Database,
  key: string,
  compute: () => Promise<ListTotal>,
  now: number,
): Promise<ListTotal> {
  // A node that cannot hear other nodes' writes remembers nothing (ADR 056).
  if (deaf.has(db)) return compute();
  const memory = memoryOf(db);
  const remembered = memory.get(key);
  if (remembered && remembered.expires > now) return remembered.total;
  // Concurrent first requests share one count instead of each starting their own.
  const total = compute();
  if (memory.size >= MAX_REMEMBERED) memory.clear();
  memory.set(key, { expires: now + TOTAL_TTL_MS, total });
  total.catch(() => memory.delete(key));
  return total;
}

/**
 * An exact count remembered like a list's total (TOTAL_TTL_MS, forgotten by any write through
 * this process): for a figure too costly to count on every request and not kept by a counter,
 * such as the dashboard's overdue patients (ADR 060).
 */
export function rememberedCount(
  db: Database,
  key: string,
  count: () => Promise<number>,
  now = Date.now(),
): Promise<number> {
  return remember(db, key, async () => ({ total: await count(), total_kind: 'exact' }), now).then(
    (answer) => answer.total,
  );
}

/** A stable key for a list's filters: the same filters in any order give the same key. */
export function totalKey(list: string, filters: Record<string, unknown>): string {
  const defined = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return `${list}:${JSON.stringify(defined)}`;
}

/** Rows loaded by id, put back in the order of the page's ids (the second half of a deferred join). */
export function inOrderOf<T>(ids: readonly number[], rows: readonly T[], idOf: (row: T) => number) {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [row];
  });
}

/**
 * The answer of a paged list (`page`/`limit`): its rows and how their total was counted. Every
 * paged list answers this one shape (ADR 046).
 */
export function pagedAnswer<T>(data: T[], counted: ListTotal) {
  return { data, total: counted.total, total_kind: counted.total_kind };
}

/** The answer of the patients list, which pages by `offset` and names its total `total_count`. */
export function offsetAnswer<T>(data: T[], counted: ListTotal) {
  return { data, total_count: counted.total, total_kind: counted.total_kind };
}
