import { describe, expect, it } from 'vitest';
import type { CalendarRule } from '@portal/shared';
import {
  appliesOn,
  daySummaries,
  firstOfMonth,
  isWholeDayRule,
  dayOfMonthLabel,
  monthOf,
  ownWholeDayBlock,
  ruleHours,
  summaryOf,
} from './calendar-days';

const rule = (over: Partial<CalendarRule>): CalendarRule => ({
  id: 1,
  unit_id: 1,
  date: '2026-12-07',
  started_at: '08:00:00',
  ended_at: '12:00:00',
  type: 'enabled',
  is_global: false,
  version: 1,
  ...over,
});

const noGlobals = { '1': [], '2': [], '3': [], '4': [], '5': [], '6': [], '7': [] };

describe('calendar days', () => {
  it('summarises the days the server lists and gives other days no rules', () => {
    const days = daySummaries({
      data: [
        {
          date: '2026-12-07',
          count: 2,
          started_at: '08:00:00',
          ended_at: '12:00:00',
          is_blocked: false,
        },
        {
          date: '2026-12-08',
          count: 1,
          started_at: '00:00:00',
          ended_at: '23:59:00',
          is_blocked: true,
        },
      ],
      global_rules: noGlobals,
    });
    expect(summaryOf(days, '2026-12-07')).toEqual({ count: 2, blocked: false });
    expect(summaryOf(days, '2026-12-08')).toEqual({ count: 1, blocked: true });
    expect(summaryOf(days, '2026-12-09')).toEqual({ count: 0, blocked: false });
    expect(daySummaries(undefined).size).toBe(0);
  });

  it('reads months and times as the API and the inputs take them', () => {
    expect(monthOf('2026-02-28')).toEqual({ year: 2026, month: 2 });
    expect(firstOfMonth('2026-02-28')).toBe('2026-02-01');
    expect(ruleHours(rule({}))).toBe('08:00–12:00');
    expect(dayOfMonthLabel('2026-01-05')).toBe('05.01.2026');
  });

  it('finds only the date’s own whole-day block for the switch', () => {
    const block = rule({ id: 2, started_at: '00:00:00', ended_at: '23:59:00', type: 'disabled' });
    const globalBlock = { ...block, id: 3, is_global: true, date: '2026-11-30' };
    expect(isWholeDayRule(block)).toBe(true);
    expect(isWholeDayRule({ ...block, type: 'enabled' })).toBe(false);
    expect(isWholeDayRule({ ...block, ended_at: '23:00:00' })).toBe(false);
    expect(ownWholeDayBlock([rule({}), globalBlock], '2026-12-07')).toBeUndefined();
    expect(ownWholeDayBlock([rule({}), globalBlock, block], '2026-12-07')).toBe(block);
    expect(ownWholeDayBlock([block], '2026-12-08')).toBeUndefined();
  });

  it('applies a global rule to every date of its weekday', () => {
    const monday = rule({ is_global: true, date: '2026-11-30' });
    expect(appliesOn(monday, '2026-12-07')).toBe(true);
    expect(appliesOn(monday, '2026-12-08')).toBe(false);
    expect(appliesOn(rule({}), '2026-12-07')).toBe(true);
    expect(appliesOn(rule({}), '2026-12-14')).toBe(false);
  });
});
