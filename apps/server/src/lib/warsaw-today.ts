import { addDays, warsawDay, warsawDayStart } from '@portal/shared';

/** The Warsaw day last asked for and the instants between which it is today. */
let known: { day: string; from: number; until: number } | null = null;

/**
 * Today's date in Warsaw (YYYY-MM-DD), as warsawDay() answers it, remembered until the next
 * Warsaw midnight: formatting the clock in a time zone (Intl) cost about 2 % of a plain patients
 * page's CPU when done on every request (ADR 057). A clock set back (tests) computes it again.
 */
export function warsawToday(now = Date.now()): string {
  if (!known || now < known.from || now >= known.until) {
    const day = warsawDay(now);
    known = {
      day,
      from: warsawDayStart(day).getTime(),
      until: warsawDayStart(addDays(day, 1)).getTime(),
    };
  }
  return known.day;
}
