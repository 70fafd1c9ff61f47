import { daySlots, settingWithDefaults } from '@portal/shared';
import type { DaySlot, SlotsResponse, VisitsValue } from '@portal/shared';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Placeholder, SQL } from 'drizzle-orm';
import { preparedOnce } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { patients, settings, unitCalendarRules, units, visits } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { reachesUnit } from '../../policies/units.js';
import { liveVisit } from '../../lib/live-visit.js';

/**
 * The `visits` setting over its defaults (as GET /api/settings/visits shows it), read on any
 * connection or transaction: booking reads it inside its own transaction.
 */
export async function visitSettings(db: Queryable): Promise<VisitsValue> {
  const [row] = await visitSettingQuery(db);
  return visitSettingsFrom(row?.value);
}

/** The stored `visits` value, as a query that can also sit inside a larger statement. */
export const visitSettingQuery = (db: Queryable) =>
  db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'visits'));

/** A stored `visits` value (or nothing) over the defaults. */
export function visitSettingsFrom(stored: unknown): VisitsValue {
  return settingWithDefaults('visits', stored);
}

/**
 * Of a unit's rules, those that shape a day: the date's own and its weekday's global ones. The
 * day may be a placeholder (booking's prepared statement), so its weekday is taken in SQL.
 */
const ofDay = (date: string | Placeholder) =>
  or(
    eq(unitCalendarRules.date, date),
    and(
      eq(unitCalendarRules.is_global, true),
      sql`extract(isodow from ${unitCalendarRules.date}) = extract(isodow from ${date}::date)`,
    ),
  );

const ruleColumns = {
  date: unitCalendarRules.date,
  started_at: unitCalendarRules.started_at,
  ended_at: unitCalendarRules.ended_at,
  type: unitCalendarRules.type,
  is_global: unitCalendarRules.is_global,
};

/**
 * The rules that shape a unit's day: the date's own and the global rules of its weekday. A query
 * (awaited, it gives the rules) so that booking can read it inside its one statement.
 */
export const rulesForDay = (db: Queryable, unitId: number | SQL, date: string | Placeholder) =>
  db
    .select(ruleColumns)
    .from(unitCalendarRules)
    .where(and(eq(unitCalendarRules.unit_id, unitId), ofDay(date)));

/** `HH:MM` from the slot function as the `HH:MM:SS` every answer carries. */
const withSeconds = (time: string) => (time.length === 5 ? `${time}:00` : time);

/**
 * Every open slot of a unit's day with the live visit in it (docs/api-conventions.md "Slots"), and
 * apart, in `closed_visits`, the live visits outside open slots, marked `closed`. Three short queries, sent together: the
 * setting, the unit with the day's rules, the day's visits.
 */
export async function unitDaySlots(
  db: Database,
  actor: Actor,
  unitId: number,
  date: string,
  now: Date = new Date(),
): Promise<SlotsResponse> {
  if (!reachesUnit(actor, unitId)) throw notFound();
  const queries = preparedOnce(db, 'unit_day_slots', () => slotQueries(db));
  const [[setting], rules, booked] = await Promise.all([
    queries.setting.execute(),
    queries.unitWithRules.execute({ unitId, date }),
    queries.booked.execute({ unitId, date }),
  ]);
  // No row: no such unit (one row with no rule for a unit without rules).
  if (rules.length === 0) throw notFound();
  const byStart = new Map(booked.map((v) => [v.started_at, v]));
  const dayRules = rules.flatMap(({ rule }) => (rule ? [rule] : []));
  const data: DaySlot[] = daySlots(
    date,
    visitSettingsFrom(setting?.value),
    dayRules,
    now,
  ).slots.map((slot) => {
    const started_at = withSeconds(slot.started_at);
    const found = byStart.get(started_at);
    return {
      started_at,
      ended_at: withSeconds(slot.ended_at),
      visit: found
        ? {
            id: found.id,
            patient_id: found.patient_id,
            patient: { firstname: found.firstname, surname: found.surname },
          }
        : null,
    };
  });
  // A booked visit whose hours were blocked after it was booked (or have passed) is still
  // booked: it is listed, marked closed, never hidden (ADR 041).
  const offered = new Set(data.map((slot) => slot.started_at));
  const outside: DaySlot[] = booked
    .filter((v) => !offered.has(v.started_at))
    .map((v) => ({
      started_at: v.started_at,
      ended_at: v.ended_at,
      visit: {
        id: v.id,
        patient_id: v.patient_id,
        patient: { firstname: v.firstname, surname: v.surname },
      },
      closed: true as const,
    }));
  // Apart from `data`, which keeps the open slots only (a blocked day's is empty, ADR 024).
  return outside.length === 0 ? { data } : { data, closed_visits: outside };
}

/**
 * The slots answer's three short queries, prepared once per database (preparedOnce) and sent
 * together: the setting, the unit left-joined with the day's rules (no row: no such unit), and
 * the day's live visits with the patient's name.
 */
function slotQueries(db: Database) {
  const unitId = sql.placeholder('unitId');
  const date = sql.placeholder('date');
  return {
    setting: visitSettingQuery(db).prepare('slots_setting'),
    unitWithRules: db
      .select({ unit: units.id, rule: ruleColumns })
      .from(units)
      .leftJoin(unitCalendarRules, and(eq(unitCalendarRules.unit_id, units.id), ofDay(date)))
      .where(eq(units.id, unitId))
      .prepare('slots_unit_rules'),
    booked: db
      .select({
        id: visits.id,
        patient_id: visits.patient_id,
        started_at: visits.started_at,
        ended_at: visits.ended_at,
        firstname: patients.firstname,
        surname: patients.surname,
      })
      .from(visits)
      .innerJoin(patients, eq(patients.id, visits.patient_id))
      .where(and(eq(visits.unit_id, unitId), eq(visits.date, date), liveVisit))
      .prepare('slots_booked'),
  };
}
