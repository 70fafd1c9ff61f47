import { daySlots, formatWarsawTime, timeToMinutes, warsawDay } from '@portal/shared';
import type { CalendarBookedVisit, Slot, SlotRule } from '@portal/shared';
import { and, asc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients, unitCalendarRules, visits } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { liveVisit } from '../../lib/live-visit.js';
import { visitSettings } from '../visits/index.js';

/** A rule as a write leaves or finds it; `id` names a stored one. */
type RuleChange = SlotRule & { id?: number };

/** Whether [start, end) of a visit lies wholly inside one open interval of its day. */
function insideOpen(open: readonly Slot[], visit: { started_at: string; ended_at: string }) {
  const start = timeToMinutes(visit.started_at) ?? 0;
  const end = timeToMinutes(visit.ended_at) ?? start;
  return open.some(
    (o) => (timeToMinutes(o.started_at) ?? 0) <= start && end <= (timeToMinutes(o.ended_at) ?? 0),
  );
}

/**
 * The upcoming booked visits of a unit whose hours a calendar write closes (ADR 041): open
 * under the rules as they are, closed under the rules as the write leaves them (`before` is the
 * stored rule it changes or deletes, `after` the rule it writes). A block, an edit and the
 * deletion of an unblock can all close hours; a global rule reaches every such weekday. Only
 * visits not yet begun count; a visit already in closed hours (blocked earlier, confirmed) is
 * not listed again.
 */
export async function visitsClosedBy(
  tx: Queryable,
  unitId: number,
  before: RuleChange | null,
  after: RuleChange | null,
  now: Date,
): Promise<CalendarBookedVisit[]> {
  const changed = [before, after].filter((rule): rule is RuleChange => rule !== null);
  const dates = changed.filter((r) => !r.is_global).map((r) => r.date);
  const weekdays = changed
    .filter((r) => r.is_global)
    .map((r) => sql`extract(isodow from ${r.date}::date)`);
  const today = warsawDay(now);
  const reach = [
    dates.length ? inArray(visits.date, dates) : undefined,
    weekdays.length
      ? sql`extract(isodow from ${visits.date}) in (${sql.join(weekdays, sql`, `)})`
      : undefined,
  ].filter((condition) => condition !== undefined);
  if (reach.length === 0) return [];
  const booked = await tx
    .select({
      id: visits.id,
      date: visits.date,
      started_at: visits.started_at,
      ended_at: visits.ended_at,
      patient: { id: patients.id, firstname: patients.firstname, surname: patients.surname },
    })
    .from(visits)
    .innerJoin(patients, eq(patients.id, visits.patient_id))
    .where(
      and(
        eq(visits.unit_id, unitId),
        liveVisit,
        eq(visits.is_done, false),
        gte(visits.date, today),
        or(...reach),
      ),
    )
    .orderBy(asc(visits.date), asc(visits.started_at), asc(visits.id));
  const clock = formatWarsawTime(now);
  const upcoming = booked.filter(
    (v) => v.date > today || v.started_at.slice(0, 5) > clock.slice(0, 5),
  );
  if (upcoming.length === 0) return [];

  const visitDates = [...new Set(upcoming.map((v) => v.date))];
  const [setting, stored] = await Promise.all([
    visitSettings(tx),
    tx
      .select()
      .from(unitCalendarRules)
      .where(
        and(
          eq(unitCalendarRules.unit_id, unitId),
          or(eq(unitCalendarRules.is_global, true), inArray(unitCalendarRules.date, visitDates)),
        ),
      ),
  ]);
  const rulesBefore: SlotRule[] = stored;
  const rulesAfter: SlotRule[] = [
    ...stored.filter((rule) => before?.id === undefined || rule.id !== before.id),
    ...(after ? [after] : []),
  ];
  const openOn = (rules: SlotRule[]) => {
    const cache = new Map<string, Slot[]>();
    return (date: string) => {
      if (!cache.has(date)) cache.set(date, daySlots(date, setting, rules, now).open);
      return cache.get(date)!;
    };
  };
  const openBefore = openOn(rulesBefore);
  const openAfter = openOn(rulesAfter);
  return upcoming.filter(
    (v) => insideOpen(openBefore(v.date), v) && !insideOpen(openAfter(v.date), v),
  );
}

/**
 * Refuses a calendar write that closes booked visits unless the caller confirmed it: 409
 * `visits_booked` with the visits (patient, day, time), so that any API caller is warned, not
 * only the web app (ADR 041).
 */
export async function guardBookedVisits(
  tx: Queryable,
  unitId: number,
  before: RuleChange | null,
  after: RuleChange | null,
  confirmed: boolean,
  now: Date,
): Promise<void> {
  if (confirmed) return;
  const closed = await visitsClosedBy(tx, unitId, before, after, now);
  if (closed.length > 0) throw new AppError(409, 'visits_booked', { visits: closed });
}
