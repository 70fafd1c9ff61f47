import { addDays, warsawDay } from '@portal/shared';

/**
 * The date-range filter's options as calendar days in Europe/Warsaw (docs/product-rules.md "Dates
 * and times"), through the shared time module. Pure functions of an explicit `now`, so they are
 * testable and independent of the browser's time zone.
 */

/** The options in their fixed order (docs/product-rules.md "Fixed orders and words"). */
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

/** A YYYY-MM-DD day as the address may carry it; anything else is dropped. */
function dayParam(value: string | null): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : null;
}

/**
 * The choice a list's address names (`?range=last7`, `?range=custom&from=…&to=…`; none: from the
 * beginning), so that a reload or a shared link filters alike. A relative option stays relative:
 * the link means "the last 7 days" on the day it is opened.
 */
export function dateChoiceFromUrl(params: URLSearchParams): DateRangeChoice {
  const option = params.get('range');
  if (!(DATE_RANGE_OPTIONS as readonly (string | null)[]).includes(option)) return ALL_TIME;
  return {
    option: option as DateRangeOption,
    custom:
      option === 'custom'
        ? [dayParam(params.get('from')), dayParam(params.get('to'))]
        : [null, null],
  };
}

/** Writes a choice into the address parameters (the counterpart of dateChoiceFromUrl). */
export function setDateChoiceInUrl(params: URLSearchParams, choice: DateRangeChoice): void {
  for (const name of ['range', 'from', 'to']) params.delete(name);
  if (choice.option === 'all') return;
  params.set('range', choice.option);
  if (choice.option !== 'custom') return;
  const [start, end] = choice.custom;
  if (start) params.set('from', start);
  if (end) params.set('to', end);
}
