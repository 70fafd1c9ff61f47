/**
 * A unit's open hours and slot grid for a day (docs/product-rules.md "Work hours and slots", "Slot
 * grid"; ADR 024). Pure: settings, rules and "now" come in, nothing is read from the clock or the
 * database, so the server (slots answer, booking check) and the web app compute the same thing.
 *
 * Times of day are Warsaw wall-clock minutes 0..1439. The usable day ends at 23:59: a rule
 * ending at 23:59 covers the rest of the day, and no slot ends after 23:59 (so no slot needs a
 * "24:00" that a `time` column or an HH:MM field would not hold).
 */

import { addDays, warsawWallClock } from './time.js';

/** The part of the `visits` setting that shapes the grid. */
export interface SlotSettings {
  visit_start_hour: number;
  visit_end_hour: number;
  meeting_length_minutes: number;
  /**
   * How many days ahead of today a visit may be booked (ADR 038); days after today + this are
   * closed (`beyond_horizon`). Absent: no horizon.
   */
  booking_horizon_days?: number;
}

/**
 * A unit calendar rule as stored (docs/api-conventions.md "Unit calendar rule"); `id` and `unit_id`
 * are not needed here.
 */
export interface SlotRule {
  date: string;
  started_at: string;
  ended_at: string;
  type: 'enabled' | 'disabled';
  is_global: boolean;
}

/** A slot or an open interval on the wall clock, `HH:MM` each. */
export interface Slot {
  started_at: string;
  ended_at: string;
}

export type DayClosed = 'weekend' | 'past' | 'beyond_horizon';

export interface DaySlots {
  date: string;
  /** Why no slot is offered whatever the rules say; null on a weekday from today on. */
  closed: DayClosed | null;
  /** Open hours after the rules (weekends start with none, but rules may still open them). */
  open: Slot[];
  /** Slots wholly inside open hours, on the grid, not on a weekend and not in the past. */
  slots: Slot[];
}

/** Why a requested slot cannot be booked; the server answers each with `not_available`. */
export type SlotRefusal = 'invalid' | 'weekend' | 'past' | 'beyond_horizon' | 'off_grid' | 'closed';

/** The last minute of the day a slot or open interval may reach (23:59). */
export const DAY_END_MINUTE = 23 * 60 + 59;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** [from, to) in minutes of the day, from < to. */
type Interval = readonly [number, number];

/** `HH:MM` or `HH:MM:SS` as minutes of the day (seconds dropped); null when not a time. */
export function timeToMinutes(time: string): number | null {
  const match = TIME.exec(time);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3] ?? 0);
  if (minutes > 59 || seconds > 59) return null;
  if (hours > 24 || (hours === 24 && (minutes > 0 || seconds > 0))) return null;
  return hours * 60 + minutes;
}

/** Minutes of the day as `HH:MM`. */
export function minutesToTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD day; null when not a real day. */
export function isoWeekday(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return null;
  return date.getUTCDay() === 0 ? 7 : date.getUTCDay();
}

/**
 * A whole-day block (docs/product-rules.md "Work hours and slots"): one disabled rule from 00:00 to
 * 23:59.
 */
export function isWholeDayBlock(rule: Pick<SlotRule, 'type' | 'started_at' | 'ended_at'>): boolean {
  return (
    rule.type === 'disabled' &&
    timeToMinutes(rule.started_at) === 0 &&
    (timeToMinutes(rule.ended_at) ?? 0) >= DAY_END_MINUTE
  );
}

/**
 * Whether a wall-clock time occurs in Warsaw on that day: false for 02:00–02:59 on the last
 * Sunday of March (the clocks jump from 02:00 to 03:00). Times of the repeated October hour
 * occur (twice). Rule validation uses this to refuse e.g. 02:30 on the spring-forward night.
 */
export function warsawTimeExists(day: string, time: string): boolean {
  const match = DAY.exec(day);
  const minutes = timeToMinutes(time);
  if (!match || minutes === null || isoWeekday(day) === null) return false;
  if (minutes >= 24 * 60) return true; // the end of the day, not a clock reading
  const wallAsUtc =
    Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + minutes * 60_000;
  // Warsaw is UTC+1 (CET) or UTC+2 (CEST): the time exists when one of them reads back as it.
  return [60, 120].some((offset) => {
    const clock = warsawWallClock(new Date(wallAsUtc - offset * 60_000));
    return clock.day === day && clock.ms === minutes * 60_000;
  });
}

interface ParsedRule {
  interval: Interval | null;
  disabled: boolean;
}

function parseRule(rule: SlotRule): ParsedRule {
  const from = timeToMinutes(rule.started_at);
  const to = timeToMinutes(rule.ended_at);
  if (from === null || to === null) return { interval: null, disabled: false };
  const end = Math.min(to, DAY_END_MINUTE);
  // An end before its start is refused by the rule's validation; here it covers nothing.
  return { interval: from < end ? [from, end] : null, disabled: rule.type === 'disabled' };
}

/** Rules grouped once, so a month costs one pass over them (`monthSlots`). */
export interface RuleIndex {
  byDate: Map<string, ParsedRule[]>;
  byWeekday: ParsedRule[][];
}

export function indexRules(rules: readonly SlotRule[]): RuleIndex {
  const byDate = new Map<string, ParsedRule[]>();
  const byWeekday: ParsedRule[][] = Array.from({ length: 8 }, () => []);
  for (const rule of rules) {
    const parsed = parseRule(rule);
    if (rule.is_global) {
      const weekday = isoWeekday(rule.date);
      if (weekday !== null) byWeekday[weekday]?.push(parsed);
    } else {
      const list = byDate.get(rule.date);
      if (list) list.push(parsed);
      else byDate.set(rule.date, [parsed]);
    }
  }
  return { byDate, byWeekday };
}

/** Sorted, merged, non-touching intervals. */
function normalise(intervals: Interval[]): Interval[] {
  const sorted = intervals.slice().sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** a minus b, both normalised. */
function subtract(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const [from, to] of a) {
    let start = from;
    while (j < b.length && (b[j]?.[1] ?? 0) <= start) j++;
    let k = j;
    while (k < b.length && start < to) {
      const [bFrom, bTo] = b[k] as Interval;
      if (bFrom >= to) break;
      if (bFrom > start) out.push([start, bFrom]);
      start = Math.max(start, bTo);
      k++;
    }
    if (start < to) out.push([start, to]);
  }
  return out;
}

/** One level (global weekday rules, then the date's rules): unblock adds, then block removes. */
function applyLevel(open: Interval[], rules: readonly ParsedRule[] | undefined): Interval[] {
  if (!rules || rules.length === 0) return open;
  const enabled: Interval[] = [];
  const disabled: Interval[] = [];
  for (const rule of rules) {
    if (rule.interval) (rule.disabled ? disabled : enabled).push(rule.interval);
  }
  // Block wins within a level: everything the level unblocks, minus everything it blocks.
  return subtract(normalise([...open, ...enabled]), normalise(disabled));
}

function openIntervals(day: string, weekday: number, settings: SlotSettings, index: RuleIndex) {
  const base: Interval[] = [];
  if (weekday <= 5) {
    const from = settings.visit_start_hour * 60;
    const to = Math.min(settings.visit_end_hour * 60, DAY_END_MINUTE);
    if (from < to) base.push([from, to]);
  }
  const global = applyLevel(base, index.byWeekday[weekday]);
  return applyLevel(global, index.byDate.get(day));
}

/** The last day a visit may be booked on, today (Warsaw) plus the horizon; null: no horizon. */
export function lastBookableDay(settings: SlotSettings, today: string): string | null {
  const horizon = settings.booking_horizon_days;
  return horizon === undefined || !Number.isInteger(horizon) ? null : addDays(today, horizon);
}

function beyondHorizon(day: string, settings: SlotSettings, today: string): boolean {
  const last = lastBookableDay(settings, today);
  return last !== null && day > last;
}

function daySlotsIndexed(
  day: string,
  settings: SlotSettings,
  index: RuleIndex,
  now: { day: string; ms: number },
): DaySlots {
  const weekday = isoWeekday(day);
  if (weekday === null) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  const open = openIntervals(day, weekday, settings, index);
  const closed: DayClosed | null =
    weekday >= 6
      ? 'weekend'
      : day < now.day
        ? 'past'
        : beyondHorizon(day, settings, now.day)
          ? 'beyond_horizon'
          : null;
  const slots: Slot[] = [];
  const length = settings.meeting_length_minutes;
  if (closed === null && Number.isInteger(length) && length > 0) {
    // Today: the first slot is the grid's first start at or after the wall clock (rounded up).
    const earliest = day === now.day ? Math.ceil(now.ms / 60_000) : 0;
    for (const [from, to] of open) {
      const lowest = Math.max(from, earliest);
      for (let start = Math.ceil(lowest / length) * length; start + length <= to; start += length)
        slots.push({ started_at: minutesToTime(start), ended_at: minutesToTime(start + length) });
    }
  }
  return { date: day, closed, open: open.map(toSlot), slots };
}

const toSlot = ([from, to]: Interval): Slot => ({
  started_at: minutesToTime(from),
  ended_at: minutesToTime(to),
});

/**
 * The open hours and slots of a unit on a day. `rules` are the unit's rules (any dates: the
 * date's own and the global rules of its weekday are picked here); `now` decides past days and
 * today's first slot on Warsaw's wall clock.
 */
export function daySlots(
  day: string,
  settings: SlotSettings,
  rules: readonly SlotRule[] | RuleIndex,
  now: Date,
): DaySlots {
  const index = 'byDate' in rules ? rules : indexRules(rules);
  return daySlotsIndexed(day, settings, index, warsawWallClock(now));
}

/** Every day of a month (`month` 1–12), rules indexed once. */
export function monthSlots(
  year: number,
  month: number,
  settings: SlotSettings,
  rules: readonly SlotRule[],
  now: Date,
): DaySlots[] {
  const index = indexRules(rules);
  const wall = warsawWallClock(now);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const prefix = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-`;
  const out: DaySlots[] = [];
  for (let d = 1; d <= days; d++)
    out.push(daySlotsIndexed(`${prefix}${String(d).padStart(2, '0')}`, settings, index, wall));
  return out;
}

/**
 * Whether a slot may be booked (leaving out "taken", which only the database knows): null when
 * it may, else why not. `ended_at`, when given, must be the grid's end of that slot.
 */
export function slotRefusal(
  slot: { date: string; started_at: string; ended_at?: string | null | undefined },
  settings: SlotSettings,
  rules: readonly SlotRule[] | RuleIndex,
  now: Date,
): SlotRefusal | null {
  const start = timeToMinutes(slot.started_at);
  const end = slot.ended_at == null ? null : timeToMinutes(slot.ended_at);
  if (isoWeekday(slot.date) === null || start === null || (slot.ended_at != null && end === null))
    return 'invalid';
  const index = 'byDate' in rules ? rules : indexRules(rules);
  const wall = warsawWallClock(now);
  const day = daySlotsIndexed(slot.date, settings, index, wall);
  if (day.closed) return day.closed;
  const length = settings.meeting_length_minutes;
  const whole = (time: string | null | undefined) => time == null || !/:\d\d:(?!00)/.test(time);
  if (start % length !== 0 || (end !== null && end !== start + length)) return 'off_grid';
  if (!whole(slot.started_at) || !whole(slot.ended_at)) return 'off_grid';
  if (slot.date === wall.day && start * 60_000 < wall.ms) return 'past';
  const startText = minutesToTime(start);
  return day.slots.some((s) => s.started_at === startText) ? null : 'closed';
}

export function isSlotBookable(
  slot: { date: string; started_at: string; ended_at?: string | null | undefined },
  settings: SlotSettings,
  rules: readonly SlotRule[] | RuleIndex,
  now: Date,
): boolean {
  return slotRefusal(slot, settings, rules, now) === null;
}
