/**
 * Calendar days in Europe/Warsaw (design §5): the date-range filter's options and the portal's
 * DD.MM.YYYY / HH:mm display. Pure functions of an explicit `now`, so they are testable and
 * independent of the browser's time zone.
 */
export const WARSAW = 'Europe/Warsaw';

/** The spec's options, in its order. */
export const DATE_RANGE_OPTIONS = [
  'all',
  'yesterday',
  'today',
  'last7',
  'last14',
  'last30',
  'custom',
] as const;
export type DateRangeOption = (typeof DATE_RANGE_OPTIONS)[number];

/** Query parameters of the lists (YYYY-MM-DD); absent means unbounded. */
export interface DateRange {
  from_date?: string;
  to_date?: string;
}

/** What the user picked; `custom` holds the calendar's [start, end] (YYYY-MM-DD or null). */
export interface DateRangeChoice {
  option: DateRangeOption;
  custom: [string | null, string | null];
}

export const ALL_TIME: DateRangeChoice = { option: 'all', custom: [null, null] };

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: WARSAW,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function warsawParts(instant: Date) {
  const parts: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: parts.year ?? '',
    month: parts.month ?? '',
    day: parts.day ?? '',
    hour: parts.hour ?? '',
    minute: parts.minute ?? '',
  };
}

/** The calendar day in Warsaw at this instant, YYYY-MM-DD. */
export function warsawDay(now: Date): string {
  const p = warsawParts(now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** A YYYY-MM-DD day moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const moved = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + days));
  return moved.toISOString().slice(0, 10);
}

/** 'Ostatnie N dni' covers today and the N-1 days before it. */
function lastDays(today: string, count: number): DateRange {
  return { from_date: addDays(today, -(count - 1)), to_date: today };
}

/** The days a choice stands for, as the lists' from_date/to_date. */
export function dateRangeFor(choice: DateRangeChoice, now: Date): DateRange {
  const today = warsawDay(now);
  switch (choice.option) {
    case 'all':
      return {};
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from_date: yesterday, to_date: yesterday };
    }
    case 'today':
      return { from_date: today, to_date: today };
    case 'last7':
      return lastDays(today, 7);
    case 'last14':
      return lastDays(today, 14);
    case 'last30':
      return lastDays(today, 30);
    case 'custom': {
      const [start, end] = choice.custom;
      if (!start) return {};
      // While only the first day is picked the range is open-ended; a reversed pick is put right.
      if (!end) return { from_date: start };
      return start <= end ? { from_date: start, to_date: end } : { from_date: end, to_date: start };
    }
  }
}

/** 'YYYY-MM-DD' -> 'DD.MM.YYYY' (a calendar date: no time zone); anything else as it is. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : day;
}

/** An instant (ISO timestamp) as 'DD.MM.YYYY HH:mm' in Warsaw. */
export function formatDateTime(instant: string | null | undefined): string {
  if (!instant) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  const p = warsawParts(date);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}
