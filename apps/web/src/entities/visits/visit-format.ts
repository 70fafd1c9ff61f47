import { formatWarsawTime, warsawDay } from '@portal/shared';
import type { Visit } from '@portal/shared';
import { shortTime } from '../../lib/format';

/** Ordinals with a name of their own (pierwsza … dziesiąta wizyta); later ones are numbered. */
export const NAMED_ORDINALS = 10;

type NamedOrdinal = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
export type OrdinalKey = `card.visits.ordinal.${NamedOrdinal}` | 'card.visits.ordinalNumber';

const isNamed = (ordinal: number): ordinal is NamedOrdinal =>
  Number.isInteger(ordinal) && ordinal >= 1 && ordinal <= NAMED_ORDINALS;

/** The translation key and value of a visit's name: `card.visits.ordinal.3` or "wizyta nr 11". */
export function ordinalKey(ordinal: number): { key: OrdinalKey; options: { n: number } } {
  return {
    key: isNamed(ordinal) ? `card.visits.ordinal.${ordinal}` : 'card.visits.ordinalNumber',
    options: { n: ordinal },
  };
}

/**
 * Past means over: recorded (a recorded visit is no longer upcoming, ADR 045), a day before today
 * in Warsaw, or today with the end already reached. A visit under way stays upcoming until it
 * ends or is recorded, so it can still be found among today's visits.
 */
export function isPastVisit(
  visit: Pick<Visit, 'date' | 'ended_at'> & { isDone?: boolean },
  now: Date = new Date(),
): boolean {
  if (visit.isDone) return true;
  const today = warsawDay(now);
  if (visit.date !== today) return visit.date < today;
  return shortTime(visit.ended_at) <= formatWarsawTime(now);
}

export type SortDirection = 'asc' | 'desc';

/** Visits by date and start time, in the chosen direction. */
export function sortVisits<T extends Pick<Visit, 'date' | 'started_at'>>(
  visits: readonly T[],
  direction: SortDirection,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...visits].sort(
    (a, b) => sign * (a.date.localeCompare(b.date) || a.started_at.localeCompare(b.started_at)),
  );
}

/** The upcoming and the past visits, each sorted in its direction. */
export function splitVisits<T extends Pick<Visit, 'date' | 'started_at' | 'ended_at'>>(
  visits: readonly T[],
  now: Date,
  sort: { future: SortDirection; past: SortDirection },
): { future: T[]; past: T[] } {
  const past = visits.filter((visit) => isPastVisit(visit, now));
  const future = visits.filter((visit) => !isPastVisit(visit, now));
  return { future: sortVisits(future, sort.future), past: sortVisits(past, sort.past) };
}

/** Whether a day lies outside a visit window (inclusive bounds); false without a window. */
export function outsideWindow(
  day: string | null,
  window: { from: string; to: string } | null | undefined,
): boolean {
  if (!day || !window) return false;
  return day < window.from || day > window.to;
}

/** Saturday or Sunday: never bookable (docs/product-rules.md "Slot grid"). */
export function isWeekend(day: string): boolean {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}
