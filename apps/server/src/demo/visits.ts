import {
  addDays,
  daySlots,
  indexRules,
  isoWeekday,
  isSlotBookable,
  visitWindowOf,
  warsawDayStart,
  warsawToday,
  withCorrections,
  WHOLE_DAY_END,
  WHOLE_DAY_START,
} from '@portal/shared';
import type { EcgMeasured, SlotRule, VisitsValue } from '@portal/shared';
import { asc, isNull } from 'drizzle-orm';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { patients, unitCalendarRules, units, visits } from '../db/schema.js';
import { readSetting } from '../modules/settings/index.js';

/**
 * The demo's work hours and visits (issue 9 item 8): every unit gets a calendar a clinic would
 * keep, and every patient a visit history on it. Called by `npm run demo` on an empty database
 * only, like the rest of the demo.
 */

type RuleRow = typeof unitCalendarRules.$inferInsert;

/** The first date from `day` on (or back, with step -1) whose ISO weekday is `weekday`. */
function nearestWeekday(day: string, weekday: number, step: 1 | -1 = 1): string {
  let date = day;
  while (isoWeekday(date) !== weekday) date = addDays(date, step);
  return date;
}

/** A weekday (Monday–Friday) on or before `day`. */
function weekdayOnOrBefore(day: string): string {
  let date = day;
  while ((isoWeekday(date) ?? 7) > 5) date = addDays(date, -1);
  return date;
}

/** The first day of the month after `day`'s. */
function nextMonthStart(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/**
 * A unit's rules: a lunch break blocked on every weekday, Friday afternoons closed, one evening
 * clinic opened on Tuesdays (or Thursdays), and two whole days of next month blocked (a staff
 * training, a holiday), different in each unit.
 */
export function demoCalendarRules(unitId: number, index: number, today: string): RuleRow[] {
  const rule = (
    date: string,
    started_at: string,
    ended_at: string,
    type: 'enabled' | 'disabled',
    is_global: boolean,
  ): RuleRow => ({ unit_id: unitId, date, started_at, ended_at, type, is_global });
  const rules: RuleRow[] = [];
  for (let weekday = 1; weekday <= 5; weekday++)
    rules.push(rule(nearestWeekday(today, weekday), '12:00:00', '12:30:00', 'disabled', true));
  rules.push(rule(nearestWeekday(today, 5), '13:00:00', WHOLE_DAY_END, 'disabled', true));
  rules.push(
    rule(nearestWeekday(today, index % 2 ? 4 : 2), '16:00:00', '18:00:00', 'enabled', true),
  );
  const next = nextMonthStart(today);
  const firstBlocked = nearestWeekday(addDays(next, 7 + (index % 3)), 3 - (index % 2));
  for (const date of [firstBlocked, addDays(firstBlocked, 9)])
    rules.push(rule(weekdayOnOrBefore(date), WHOLE_DAY_START, WHOLE_DAY_END, 'disabled', false));
  return rules;
}

/** Gives every unit that has no rules yet its demo calendar; answers how many rules it wrote. */
export async function addDemoCalendars(
  db: Database,
  actorUserId: number | null,
  now = new Date(),
): Promise<number> {
  const today = warsawToday(now);
  const unitRows = await db
    .select({ id: units.id })
    .from(units)
    .where(isNull(units.deleted_at))
    .orderBy(asc(units.id));
  const existing = new Set(
    (await db.select({ unitId: unitCalendarRules.unit_id }).from(unitCalendarRules)).map(
      (row) => row.unitId,
    ),
  );
  const rows = unitRows
    .filter((unit) => !existing.has(unit.id))
    .flatMap((unit, index) => demoCalendarRules(unit.id, index, today));
  if (rows.length === 0) return 0;
  await inTransaction(db, actorUserId, (tx) => tx.insert(unitCalendarRules).values(rows));
  return rows.length;
}

/** ECG of a recorded visit: a normal trace, or (`abnormal`) a long QT with a slow conduction. */
function demoEcg(seed: number, abnormal: boolean) {
  const measured: Record<EcgMeasured, number> = abnormal
    ? { qt: 468 + (seed % 5) * 4, rr: 880 + (seed % 4) * 20, pq: 212 + (seed % 3) * 6, qrs: 104 }
    : {
        qt: 384 + (seed % 6) * 6,
        rr: 820 + (seed % 5) * 30,
        pq: 148 + (seed % 4) * 8,
        qrs: 86 + (seed % 3) * 4,
      };
  return withCorrections(measured);
}

const NORMAL_COMMENT =
  '<p>Pacjent w stanie ogólnym dobrym. Leki przyjmuje zgodnie z zaleceniami, bez działań niepożądanych. EKG: rytm zatokowy miarowy.</p>';
const ABNORMAL_COMMENT =
  '<p>W EKG wydłużony odstęp QTc i PQ. Zalecono kontrolę elektrolitów i powtórzenie EKG na następnej wizycie.</p>';

export interface DemoVisitCounts {
  done: number;
  upcoming: number;
  overdue: number;
}

/**
 * Visits for every patient without any: a first visit and the second one at its target day,
 * both recorded (ECG with QTcB and QTcF from the shared formulas, a comment, every third
 * patient's second ECG out of norm), and the third booked on a free slot of the unit's calendar
 * inside its window. Every sixth patient missed the third visit: its window has passed without
 * one (overdue). Past visits sit on the slots the calendar offered on their day; upcoming ones
 * pass `isSlotBookable`, so the demo never holds a visit the booking would refuse.
 */
export async function addDemoVisits(
  db: Database,
  actorUserId: number | null,
  now = new Date(),
): Promise<DemoVisitCounts> {
  const today = warsawToday(now);
  const settings = (await readSetting(db, 'visits')).value as VisitsValue;
  const [rules, patientRows, booked] = await Promise.all([
    db.select().from(unitCalendarRules),
    db
      .select({
        id: patients.id,
        unitId: patients.unit_id,
        doctorId: patients.doctor_id,
      })
      .from(patients)
      .where(isNull(patients.deleted_at))
      .orderBy(asc(patients.id)),
    db
      .select({
        patientId: visits.patient_id,
        unitId: visits.unit_id,
        date: visits.date,
        at: visits.started_at,
      })
      .from(visits)
      .where(isNull(visits.cancelled_at)),
  ]);
  const rulesByUnit = new Map<number, ReturnType<typeof indexRules>>();
  const rulesOf = (unitId: number) => {
    let index = rulesByUnit.get(unitId);
    if (!index) {
      const own: SlotRule[] = rules.filter((rule) => rule.unit_id === unitId);
      index = indexRules(own);
      rulesByUnit.set(unitId, index);
    }
    return index;
  };
  const taken = new Set(booked.map((v) => `${v.unitId}|${v.date}|${v.at.slice(0, 5)}`));
  const withVisits = new Set(booked.map((v) => v.patientId));

  /**
   * A free slot of the unit on `day` or the next days (up to `span`), the `preferred`-th of the
   * day's slots when free; for a past day, the slots the calendar offered the day before.
   */
  const freeSlot = (unitId: number, from: string, span: number, preferred: number) => {
    for (let offset = 0; offset < span; offset++) {
      const day = addDays(from, offset);
      const past = day <= today;
      const seen = past ? warsawDayStart(addDays(day, -1)) : now;
      const { slots } = daySlots(day, settings, rulesOf(unitId), seen);
      const ordered = [...slots.slice(preferred % Math.max(slots.length, 1)), ...slots];
      for (const slot of ordered) {
        if (taken.has(`${unitId}|${day}|${slot.started_at}`)) continue;
        if (past && day === today) continue;
        if (!past && !isSlotBookable({ date: day, ...slot }, settings, rulesOf(unitId), now))
          continue;
        taken.add(`${unitId}|${day}|${slot.started_at}`);
        return { date: day, ...slot };
      }
    }
    return null;
  };

  type VisitRow = typeof visits.$inferInsert;
  const rows: VisitRow[] = [];
  const counts: DemoVisitCounts = { done: 0, upcoming: 0, overdue: 0 };
  for (const [index, patient] of patientRows.entries()) {
    if (withVisits.has(patient.id)) continue;
    const overdue = index % 6 === 5;
    const base = {
      patient_id: patient.id,
      unit_id: patient.unitId,
      doctor_id: patient.doctorId,
      created_by: actorUserId,
    };
    // Overdue patients started long enough ago for the third visit's window to have closed.
    const firstFrom = addDays(today, overdue ? -80 : -(30 + (index % 3) * 7));
    const first = freeSlot(patient.unitId, firstFrom, 10, index);
    if (!first) continue;
    const secondTarget = visitWindowOf(settings.schedule, first.date, 2)?.target_date;
    const second = secondTarget ? freeSlot(patient.unitId, secondTarget, 3, index) : null;
    for (const [n, visit] of [first, second].entries()) {
      if (!visit || visit.date >= today) continue;
      const abnormal = n === 1 && index % 3 === 0;
      rows.push({
        ...base,
        ...visit,
        is_done: true,
        comment: abnormal ? ABNORMAL_COMMENT : NORMAL_COMMENT,
        ...demoEcg(index + n, abnormal),
      });
      counts.done += 1;
    }
    const third = visitWindowOf(settings.schedule, first.date, 3);
    if (overdue || !third) {
      if (overdue) counts.overdue += 1;
      continue;
    }
    const from = third.target_date > today ? third.target_date : addDays(today, 1);
    const next = freeSlot(patient.unitId, from, 8, index);
    if (!next) continue;
    const outside = next.date < third.from || next.date > third.to;
    rows.push({
      ...base,
      ...next,
      out_of_window: outside,
      window_reason: outside ? 'Pacjent niedostępny w terminie okna wizyty (urlop).' : null,
    });
    counts.upcoming += 1;
  }
  // The audit trigger records every visit under the demo's administrator.
  if (rows.length > 0) await inTransaction(db, actorUserId, (tx) => tx.insert(visits).values(rows));
  return counts;
}
