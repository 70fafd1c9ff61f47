import { addDays, DASHBOARD_ANALYTES, settingWithDefaults, warsawDay } from '@portal/shared';
import type { DashboardQuery, DashboardResponse } from '@portal/shared';
import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.js';
import { dashboardCounts, patients, units, visits } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { dashboardUnits } from '../../policies/dashboard.js';
import { readSetting } from '../settings/index.js';
import { countOverdue } from '../visits/index.js';
import { countOpenQueries } from './open-queries.js';

interface Counter {
  metric: string;
  key: string;
  n: number;
}

/** Monday to Sunday of the week holding `day` (YYYY-MM-DD, a Warsaw calendar day). */
export function weekOf(day: string): { from: string; to: string } {
  // getUTCDay of a date-only string is that day's weekday; Monday is 1, Sunday 0.
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const from = addDays(day, -((weekday + 6) % 7));
  return { from, to: addDays(from, 6) };
}

/**
 * The median of whole days from drawing to results, from a histogram of days -> samples: the
 * middle value, or the mean of the two middle ones (as percentile_cont(0.5) answers it).
 */
export function medianOfHistogram(
  histogram: readonly (readonly [number, number])[],
): number | null {
  const sorted = [...histogram].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const valueAt = (index: number): number => {
    let seen = 0;
    for (const [days, n] of sorted) {
      seen += n;
      if (index < seen) return days;
    }
    return sorted[sorted.length - 1]![0];
  };
  const lower = valueAt(Math.floor((total - 1) / 2));
  const upper = valueAt(Math.floor(total / 2));
  return (lower + upper) / 2;
}

/** The counters of the units (null: all), summed over units, without the zeros. */
async function countersOf(db: Queryable, unitIds: number[] | null): Promise<Counter[]> {
  const rows = await db
    .select({
      metric: dashboardCounts.metric,
      key: dashboardCounts.key,
      n: sql<string>`sum(${dashboardCounts.n})`,
    })
    .from(dashboardCounts)
    .where(unitIds ? inArray(dashboardCounts.unit_id, unitIds) : undefined)
    .groupBy(dashboardCounts.metric, dashboardCounts.key);
  return rows.map((row) => ({ ...row, n: Number(row.n) })).filter((row) => row.n !== 0);
}

/** Live visits of active patients in the week, through the unit-slot index (a few hundred). */
async function visitsBetween(
  db: Queryable,
  unitIds: number[] | null,
  from: string,
  to: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(visits)
    .innerJoin(patients, eq(patients.id, visits.patient_id))
    .where(
      and(
        isNull(visits.cancelled_at),
        isNull(patients.deleted_at),
        gte(visits.date, from),
        lte(visits.date, to),
        unitIds ? inArray(visits.unit_id, unitIds) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * The study dashboard (ADR 060): counters the triggers of migration 0033 keep per unit, the
 * week's visits by index, the overdue patients as their list counts them.
 */
export async function readDashboard(
  db: Database,
  actor: Actor,
  query: DashboardQuery,
  today = warsawDay(),
): Promise<DashboardResponse> {
  const unitIds = dashboardUnits(actor, query.unit_id);
  if (query.unit_id !== undefined) {
    const [unit] = await db.select({ id: units.id }).from(units).where(eq(units.id, query.unit_id));
    if (!unit) throw notFound();
  }
  const week = weekOf(today);
  const [counters, perUnit, thisWeek, overdue, queriesOpen, target] = await Promise.all([
    countersOf(db, unitIds),
    db
      .select({ unit_id: dashboardCounts.unit_id, n: dashboardCounts.n })
      .from(dashboardCounts)
      .where(
        and(
          eq(dashboardCounts.metric, 'patients'),
          unitIds ? inArray(dashboardCounts.unit_id, unitIds) : undefined,
        ),
      )
      .orderBy(dashboardCounts.unit_id),
    visitsBetween(db, unitIds, week.from, week.to),
    countOverdue(db, unitIds, today),
    countOpenQueries(db, unitIds),
    readSetting(db, 'recruitment_target'),
  ]);

  const of = (metric: string) => counters.filter((row) => row.metric === metric);
  const one = (metric: string, key = '') =>
    counters.find((row) => row.metric === metric && row.key === key)?.n ?? 0;
  const byNumber = (a: { key: string }, b: { key: string }) => Number(a.key) - Number(b.key);

  const analyteTotals = new Map(of('analyte_n').map((row) => [row.key, row.n]));
  const analyteOut = new Map(of('analyte_out').map((row) => [row.key, row.n]));

  return {
    patients: {
      total: one('patients'),
      by_group: of('group')
        .sort(byNumber)
        .map((row) => ({ group_id: Number(row.key), count: row.n })),
      recruitment: of('recruit')
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((row) => ({ month: row.key, count: row.n })),
      by_subgroup: of('subgroup')
        .map((row) => {
          const [group, subgroup] = row.key.split(':');
          return {
            group_id: Number(group),
            subgroup_id: subgroup ? Number(subgroup) : null,
            count: row.n,
          };
        })
        .sort((a, b) => a.group_id - b.group_id || (a.subgroup_id ?? 0) - (b.subgroup_id ?? 0)),
      by_unit: perUnit
        .filter((row) => row.n !== 0)
        .map((row) => ({ unit_id: row.unit_id, count: Number(row.n) })),
    },
    visits: {
      this_week: thisWeek,
      overdue,
      in_window: one('visit_window', 'in'),
      out_of_window: one('visit_window', 'out'),
    },
    samples: {
      by_status: of('probe_status')
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((row) => ({ status: row.key, count: row.n })),
      median_days_to_results: medianOfHistogram(
        of('result_days').map((row) => [Number(row.key), row.n] as const),
      ),
    },
    // The biochemistry first, then the drug concentrations that could be judged (migration 0035).
    out_of_norm: [
      ...DASHBOARD_ANALYTES,
      ...[...analyteTotals.keys()]
        .filter((key) => key.startsWith('medicine_'))
        .sort((a, b) => Number(a.slice(9)) - Number(b.slice(9))),
    ]
      .filter((analyte) => (analyteTotals.get(analyte) ?? 0) > 0)
      .map((analyte) => {
        const results = analyteTotals.get(analyte) ?? 0;
        return { analyte, rate: (analyteOut.get(analyte) ?? 0) / results, results };
      }),
    alerts_open: one('alerts_open'),
    queries_open: queriesOpen,
    recruitment_target: settingWithDefaults('recruitment_target', target.value),
    week,
  };
}
