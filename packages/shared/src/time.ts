/**
 * Calendar days and clock times in Europe/Warsaw (docs/product-rules.md "Dates and times"), for the
 * server and the web app alike. Built on `Intl` only, so the answers do not depend on the machine's
 * time zone. Days travel as 'YYYY-MM-DD' text (a calendar date has no time zone); instants as
 * `Date`.
 */
export const WARSAW = 'Europe/Warsaw';

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})/;

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: WARSAW,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/** The Warsaw wall clock at an instant, as zero-padded parts. */
function warsawClock(instant: Date): WallClock {
  const parts: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: parts.year ?? '',
    month: parts.month ?? '',
    day: parts.day ?? '',
    hour: parts.hour ?? '',
    minute: parts.minute ?? '',
    second: parts.second ?? '',
  };
}

/**
 * The Warsaw calendar day and the wall-clock milliseconds since its midnight at an instant (the
 * slot computation compares times of day with it).
 */
export function warsawWallClock(instant: Date): { day: string; ms: number } {
  const c = warsawClock(instant);
  const seconds = Number(c.hour) * 3600 + Number(c.minute) * 60 + Number(c.second);
  // Warsaw's offset is whole minutes, so the milliseconds carry over unchanged.
  const ms = seconds * 1000 + (((instant.getTime() % 1000) + 1000) % 1000);
  return { day: `${c.year}-${c.month}-${c.day}`, ms };
}

/**
 * The instant of a Warsaw wall-clock reading (months from 1). Near a DST change the offset at a
 * guess can differ from the offset at the answer, hence two passes.
 */
export function warsawInstant(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  let guess = wall - warsawOffsetMs(wall);
  guess = wall - warsawOffsetMs(guess);
  return new Date(guess);
}

function toDate(instant: Date | string | number): Date {
  return instant instanceof Date ? instant : new Date(instant);
}

/** The calendar day in Warsaw at an instant (now by default), YYYY-MM-DD. */
export function warsawDay(instant: Date | string | number = new Date()): string {
  const c = warsawClock(toDate(instant));
  return `${c.year}-${c.month}-${c.day}`;
}

/** Today's date in Warsaw, YYYY-MM-DD. */
export const warsawToday = (now: Date = new Date()): string => warsawDay(now);

/** A YYYY-MM-DD day moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const moved = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + days));
  return moved.toISOString().slice(0, 10);
}

/** How far Warsaw's wall clock is ahead of UTC at an instant, in milliseconds. */
function warsawOffsetMs(instant: number): number {
  const c = warsawClock(new Date(instant));
  const wall = Date.UTC(+c.year, +c.month - 1, +c.day, +c.hour, +c.minute, +c.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a Warsaw calendar day begins (00:00 local). Midnight never falls in a DST gap in
 * Warsaw (the clocks move at 02:00/03:00), so the answer always exists and is unique.
 */
export function warsawDayStart(day: string): Date {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  return warsawInstant(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * The instant a Warsaw calendar day ends: the start of the next day, exclusive (use `< end`).
 * A day is 23 hours long on the last Sunday of March and 25 hours on the last Sunday of October.
 */
export function warsawDayEnd(day: string): Date {
  return warsawDayStart(addDays(day, 1));
}

/** 'YYYY-MM-DD' (a calendar date: no time zone) -> 'DD.MM.YYYY'; empty for none; other text as it is. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const match = DAY_PATTERN.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : day;
}

/** An instant as DD.MM.YYYY in Warsaw; empty for none; unreadable text as it is. */
export function formatWarsawDate(instant: Date | string | null | undefined): string {
  return formatInstant(instant, (c) => `${c.day}.${c.month}.${c.year}`);
}

/** An instant as HH:mm (24-hour) in Warsaw; empty for none; unreadable text as it is. */
export function formatWarsawTime(instant: Date | string | null | undefined): string {
  return formatInstant(instant, (c) => `${c.hour}:${c.minute}`);
}

/** An instant as 'DD.MM.YYYY HH:mm' in Warsaw; empty for none; unreadable text as it is. */
export function formatDateTime(instant: Date | string | null | undefined): string {
  return formatInstant(instant, (c) => `${c.day}.${c.month}.${c.year} ${c.hour}:${c.minute}`);
}

function formatInstant(
  instant: Date | string | null | undefined,
  format: (clock: WallClock) => string,
): string {
  if (instant === null || instant === undefined || instant === '') return '';
  const date = toDate(instant);
  if (Number.isNaN(date.getTime())) return typeof instant === 'string' ? instant : '';
  return format(warsawClock(date));
}
