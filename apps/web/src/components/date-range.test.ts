import { describe, expect, it } from 'vitest';
import {
  ALL_TIME,
  DATE_RANGE_OPTIONS,
  addDays,
  dateRangeFor,
  formatDateTime,
  formatDay,
  warsawDay,
} from './date-range';
import type { DateRangeChoice, DateRangeOption } from './date-range';

const choice = (option: DateRangeOption): DateRangeChoice => ({ option, custom: [null, null] });

describe('warsawDay', () => {
  it('is the calendar day in Warsaw, not in UTC', () => {
    // 23:30 UTC on 14 March is already 15 March in Warsaw (CET, UTC+1).
    expect(warsawDay(new Date('2026-03-14T23:30:00Z'))).toBe('2026-03-15');
    // 22:30 UTC on 14 July is 00:30 on 15 July in Warsaw (CEST, UTC+2).
    expect(warsawDay(new Date('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
    expect(warsawDay(new Date('2026-07-14T21:59:00Z'))).toBe('2026-07-14');
  });
});

describe('addDays', () => {
  it('crosses months, years and leap days', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('is not shifted by the change to summer time', () => {
    expect(addDays('2026-03-30', -1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', -1)).toBe('2026-03-28');
  });
});

describe('dateRangeFor', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('has the spec options in order', () => {
    expect(DATE_RANGE_OPTIONS).toEqual([
      'all',
      'yesterday',
      'today',
      'last7',
      'last14',
      'last30',
      'custom',
    ]);
  });

  it('from the beginning leaves both ends open', () => {
    expect(dateRangeFor(ALL_TIME, now)).toEqual({});
  });

  it('yesterday and today are single days', () => {
    expect(dateRangeFor(choice('yesterday'), now)).toEqual({
      from_date: '2026-03-09',
      to_date: '2026-03-09',
    });
    expect(dateRangeFor(choice('today'), now)).toEqual({
      from_date: '2026-03-10',
      to_date: '2026-03-10',
    });
  });

  it('the last N days include today', () => {
    expect(dateRangeFor(choice('last7'), now)).toEqual({
      from_date: '2026-03-04',
      to_date: '2026-03-10',
    });
    expect(dateRangeFor(choice('last14'), now)).toEqual({
      from_date: '2026-02-25',
      to_date: '2026-03-10',
    });
    expect(dateRangeFor(choice('last30'), now)).toEqual({
      from_date: '2026-02-09',
      to_date: '2026-03-10',
    });
  });

  it('counts days in Warsaw just after midnight', () => {
    // 00:15 on 1 January 2026 in Warsaw is still 31 December in UTC.
    const newYear = new Date('2025-12-31T23:15:00Z');
    expect(dateRangeFor(choice('today'), newYear)).toEqual({
      from_date: '2026-01-01',
      to_date: '2026-01-01',
    });
    expect(dateRangeFor(choice('yesterday'), newYear)).toEqual({
      from_date: '2025-12-31',
      to_date: '2025-12-31',
    });
  });

  it('a custom range is taken as picked, in order', () => {
    const custom = (start: string | null, end: string | null): DateRangeChoice => ({
      option: 'custom',
      custom: [start, end],
    });
    expect(dateRangeFor(custom(null, null), now)).toEqual({});
    expect(dateRangeFor(custom('2026-02-01', null), now)).toEqual({ from_date: '2026-02-01' });
    expect(dateRangeFor(custom('2026-02-01', '2026-02-03'), now)).toEqual({
      from_date: '2026-02-01',
      to_date: '2026-02-03',
    });
    expect(dateRangeFor(custom('2026-02-03', '2026-02-01'), now)).toEqual({
      from_date: '2026-02-01',
      to_date: '2026-02-03',
    });
  });

  it('ignores the custom days for the fixed options', () => {
    expect(dateRangeFor({ option: 'today', custom: ['2020-01-01', '2020-01-02'] }, now)).toEqual({
      from_date: '2026-03-10',
      to_date: '2026-03-10',
    });
  });
});

describe('formatting', () => {
  it('formatDay turns a calendar date into DD.MM.YYYY', () => {
    expect(formatDay('1944-05-14')).toBe('14.05.1944');
    expect(formatDay(null)).toBe('');
    expect(formatDay('unknown')).toBe('unknown');
  });

  it('formatDateTime shows the Warsaw wall clock', () => {
    expect(formatDateTime('2026-03-10T12:05:00.000Z')).toBe('10.03.2026 13:05');
    expect(formatDateTime('2026-07-10T22:30:00.000Z')).toBe('11.07.2026 00:30');
    expect(formatDateTime(null)).toBe('');
  });
});
