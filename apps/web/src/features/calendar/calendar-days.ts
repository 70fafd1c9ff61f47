import { calendarWeekday, WHOLE_DAY_END, WHOLE_DAY_START } from '@portal/shared';
import type { CalendarDayCount, CalendarRule, CalendarRulesCount } from '@portal/shared';
import { shortTime } from '../../lib/format';

/** What the month grid shows on one day: its number of rules and whether it is fully blocked. */
export interface DaySummary {
  count: number;
  blocked: boolean;
}

const EMPTY: DaySummary = { count: 0, blocked: false };

/**
 * The month's days by `YYYY-MM-DD`. `get_rules_count` lists only the days some rule applies to;
 * any other day of the month has none.
 */
export function daySummaries(answer: CalendarRulesCount | undefined): Map<string, DaySummary> {
  const days = new Map<string, DaySummary>();
  for (const day of answer?.data ?? ([] as CalendarDayCount[])) {
    days.set(day.date, { count: day.count, blocked: day.is_blocked });
  }
  return days;
}

export function summaryOf(days: Map<string, DaySummary>, date: string): DaySummary {
  return days.get(date) ?? EMPTY;
}

/** `YYYY-MM-DD` → the year and month (1–12) `get_rules_count` takes. */
export function monthOf(date: string): { year: number; month: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

/** The first day of a date's month, as Mantine's calendar names the month it shows. */
export function firstOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** "08:00–12:00". */
export function ruleHours(rule: Pick<CalendarRule, 'started_at' | 'ended_at'>): string {
  return `${shortTime(rule.started_at)}–${shortTime(rule.ended_at)}`;
}

export function isWholeDayRule(
  rule: Pick<CalendarRule, 'started_at' | 'ended_at' | 'type'>,
): boolean {
  return (
    rule.type === 'disabled' &&
    rule.started_at === WHOLE_DAY_START &&
    rule.ended_at === WHOLE_DAY_END
  );
}

/**
 * The date's own whole-day block, which the panel's switch turns off (DELETE). A global
 * whole-day block belongs to every such weekday: the switch does not delete it (ADR 026).
 */
export function ownWholeDayBlock(rules: readonly CalendarRule[], date: string) {
  return rules.find((rule) => !rule.is_global && rule.date === date && isWholeDayRule(rule));
}

/** Whether a global rule made on another date applies to this one (the same ISO weekday). */
export function appliesOn(rule: Pick<CalendarRule, 'date' | 'is_global'>, date: string): boolean {
  return rule.is_global ? calendarWeekday(rule.date) === calendarWeekday(date) : rule.date === date;
}

/** DD.MM.YYYY (docs/product-rules.md "Dates and times"). */
export function dayOfMonthLabel(date: string): string {
  return `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
}
