import { describe, expect, it } from 'vitest';
import { calendarRuleBody, calendarWeekday, timeField } from './calendar.js';

describe('timeField', () => {
  it('reads HH:MM and HH:MM:00 as HH:MM:SS', () => {
    expect(timeField().parse('08:30')).toBe('08:30:00');
    expect(timeField().parse('23:59:00')).toBe('23:59:00');
    expect(timeField().parse('00:00')).toBe('00:00:00');
  });

  it.each(['24:00', '25:00', '8:30', '08:60', '08:30:15', '08:30:00.5', ' 08:30', '0830', ''])(
    'refuses %j',
    (value) => {
      expect(timeField().safeParse(value).success).toBe(false);
    },
  );
});

describe('calendarRuleBody', () => {
  const body = {
    unit_id: 1,
    date: '2027-03-15',
    started_at: '08:00',
    ended_at: '12:00',
    type: 'enabled',
  };

  it('names ended_at with end_before_start, once, only when both times are valid', () => {
    const before = calendarRuleBody.safeParse({ ...body, ended_at: '07:59' });
    expect(before.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['ended_at', 'end_before_start'],
    ]);
    const bad = calendarRuleBody.safeParse({ ...body, started_at: '25:00' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['started_at', 'invalid_time'],
    ]);
    expect(calendarRuleBody.parse({ ...body, ended_at: '08:00' }).is_global).toBe(false);
  });
});

describe('times on the spring-forward night', () => {
  const rule = {
    unit_id: 1,
    date: '2026-03-29',
    started_at: '02:30',
    ended_at: '04:00',
    type: 'disabled',
  };
  const codes = (value: unknown) =>
    calendarRuleBody.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]);

  it('refuses a dated rule at a time the clocks skip, on the field', () => {
    expect(codes(rule)).toEqual([['started_at', 'invalid_time']]);
    expect(codes({ ...rule, started_at: '01:00', ended_at: '02:00' })).toEqual([
      ['ended_at', 'invalid_time'],
    ]);
  });

  it('accepts the same hours on another Sunday, and a global rule of that weekday', () => {
    expect(codes({ ...rule, date: '2026-04-05' })).toBeUndefined();
    expect(codes({ ...rule, is_global: true })).toBeUndefined();
    expect(codes({ ...rule, started_at: '03:00' })).toBeUndefined();
  });
});

describe('calendarWeekday', () => {
  it('counts ISO weekdays, Monday 1 to Sunday 7, across the DST changes', () => {
    expect(calendarWeekday('2027-03-15')).toBe(1);
    expect(calendarWeekday('2027-03-28')).toBe(7); // spring forward in Warsaw
    expect(calendarWeekday('2027-10-31')).toBe(7); // fall back
    expect(calendarWeekday('2028-02-29')).toBe(2);
  });
});
