import { warsawDay } from '@portal/shared';
import type { OverdueList, OverdueQuery, OverdueVisit, VisitsValue } from '@portal/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { patients, visits } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { listTotal, pagedAnswer, rememberedCount, totalKey } from '../../lib/list-totals.js';
import { offsetOf } from '../../lib/listing.js';
import type { Actor } from '../../plugins/policy.js';
import { patientScope } from '../../policies/patients.js';
import { reachesUnit, unitsInReach } from '../../policies/units.js';
import { shownIdentity } from '../../policies/identity.js';
import { readSetting } from '../settings/index.js';
import { patientSearch, searchKeyOf } from '../patients/index.js';

/**
 * Overdue visits (docs/product-rules.md "Visit windows", ADR 029): patients (not deleted, not
 * finished) with a first live visit whose next visit number n = live visits + 1 is in the study
 * schedule and whose window (`visitWindowOf`: first visit + day ± window_days) closed before today
 * in Warsaw. A booked future visit counts as a visit: its patient is no longer overdue for it.
 *
 * One SQL statement: the schedule as a VALUES list joined to a per-patient aggregate of live
 * visits (see overdueRows for which visits it reads).
 */

interface OverdueRow {
  patient_id: number;
  firstname: string;
  surname: string;
  pesel: string;
  unit_id: number;
  doctor_id: number | null;
  visit: number;
  target_date: string;
  window_from: string;
  window_to: string;
  last_visit_date: string;
}

/** The sort keys, each ending with the patient's id so that pages are stable. */
function orderOf(query: OverdueQuery): SQL {
  const dir = sql.raw(query.order_direction === 'asc' ? 'asc' : 'desc');
  switch (query.order_by) {
    case 'window_to':
      return sql`window_to ${dir}, patient_id ${dir}`;
    case 'surname':
      return sql`surname ${dir}, firstname ${dir}, patient_id ${dir}`;
    case 'id':
      return sql`patient_id ${dir}`;
  }
}

/**
 * The overdue rows of the actor's scope and filters, as one select (no order, no page). With a
 * scope, unit or search the aggregate reads only the candidates' visits (a semi-join: 10 ms at
 * 100,000 patients for one unit); with none, every live visit is aggregated and the patients are
 * checked by primary key afterwards, which skips a scan of the whole patients table (35 ms
 * instead of 75 ms at 100,000 patients; ADR 029).
 */
function overdueRows(schedule: VisitsValue['schedule'], where: SQL | undefined, today: string) {
  const steps = sql.join(
    schedule.map((s) => sql`(${s.visit}::int, ${s.day}::int, ${s.window_days}::int)`),
    sql`, `,
  );
  const candidates = and(
    sql`${patients.deleted_at} is null`,
    eq(patients.is_finished, false),
    where,
  );
  const narrowed = where
    ? sql`and ${visits.patient_id} in (select ${patients.id} from ${patients} where ${candidates})`
    : sql``;
  const checked = where ? sql`` : sql`and p.deleted_at is null and not p.is_finished`;
  return sql`
    select p.id as patient_id, p.firstname, p.surname, p.pesel, p.unit_id, p.doctor_id,
      s.visit,
      to_char(a.first_date + s.day, 'YYYY-MM-DD') as target_date,
      to_char(a.first_date + s.day - s.window_days, 'YYYY-MM-DD') as window_from,
      to_char(a.first_date + s.day + s.window_days, 'YYYY-MM-DD') as window_to,
      to_char(a.last_date, 'YYYY-MM-DD') as last_visit_date
    from (
      select ${visits.patient_id} as patient_id, count(*)::int as live,
        min(${visits.date}) as first_date, max(${visits.date}) as last_date
      from ${visits}
      where ${visits.cancelled_at} is null ${narrowed}
      group by ${visits.patient_id}
    ) a
    join (values ${steps}) as s (visit, day, window_days) on s.visit = a.live + 1
    join ${patients} p on p.id = a.patient_id
    where a.first_date + s.day + s.window_days < ${today}::date ${checked}`;
}

export async function listOverdue(
  db: Database,
  actor: Actor,
  query: OverdueQuery,
  today = warsawDay(),
): Promise<OverdueList> {
  // A doctor naming another unit learns nothing about it, as everywhere else (ADR 004).
  if (query.unit_id !== undefined && !reachesUnit(actor, query.unit_id)) throw notFound();
  const { schedule } = (await readSetting(db, 'visits')).value as VisitsValue;
  if (schedule.length === 0) return { data: [], total: 0, total_kind: 'exact' };

  const search = query.search?.trim() || undefined;
  const where = and(
    patientScope(actor),
    query.unit_id === undefined ? undefined : eq(patients.unit_id, query.unit_id),
    patientSearch(search, actor),
  );
  const rows = overdueRows(schedule, where, today);
  const scope = unitsInReach(actor);
  const total = listTotal(db, {
    // Today is part of the key: the list grows at midnight without any write.
    key: totalKey('visits_overdue', {
      scope: scope?.join(',') ?? 'all',
      unit_id: query.unit_id,
      search,
      pesel_shown: searchKeyOf(actor),
      today,
    }),
    rows: () =>
      db
        .select({ one: sql`1` })
        .from(sql`(${rows}) as overdue`)
        .$dynamic(),
  });
  const offset = offsetOf(query.page, query.limit);
  const result: unknown = await db.execute(
    sql`${rows} order by ${orderOf(query)} limit ${query.limit} offset ${offset}`,
  );
  // Both drivers answer { rows }; the shared Database type leaves execute()'s result unknown.
  const data = (result as { rows: OverdueRow[] }).rows.map((row) => present(row, actor));
  const counted = await total;
  return pagedAnswer(data, counted);
}

/**
 * How many patients are overdue in the given units (null: every unit), as the list counts them;
 * the dashboard's tile (ADR 060). One aggregate over the units' live visits.
 */
export async function countOverdue(
  db: Database,
  unitIds: readonly number[] | null,
  today = warsawDay(),
): Promise<number> {
  const { schedule } = (await readSetting(db, 'visits')).value as VisitsValue;
  if (schedule.length === 0 || unitIds?.length === 0) return 0;
  const where = unitIds ? inArray(patients.unit_id, [...unitIds]) : undefined;
  // An aggregate over every live visit of the units (hundreds of milliseconds at 200,000 visits
  // on a loaded machine): remembered like a list's total, forgotten by any write (ADR 060).
  const key = totalKey('dashboard_overdue', { units: unitIds ?? 'all', today, schedule });
  return rememberedCount(db, key, async () => {
    const result: unknown = await db.execute(
      sql`select count(*)::int as n from (${overdueRows(schedule, where, today)}) as overdue`,
    );
    return Number((result as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  });
}

function present(row: OverdueRow, actor: Actor): OverdueVisit {
  return {
    id: Number(row.patient_id),
    patient_id: Number(row.patient_id),
    patient: shownIdentity(actor, {
      firstname: row.firstname,
      surname: row.surname,
      pesel: row.pesel,
    }),
    unit_id: Number(row.unit_id),
    doctor_id: row.doctor_id === null ? null : Number(row.doctor_id),
    visit: Number(row.visit),
    target_date: row.target_date,
    window_from: row.window_from,
    window_to: row.window_to,
    last_visit_date: row.last_visit_date,
  };
}
