import { describe, expect, it } from 'vitest';
import { ALL_TIME, DATE_RANGE_OPTIONS, dateRangeFor } from './date-range';
import type { DateRangeChoice, DateRangeOption } from './date-range';

const choice = (option: DateRangeOption): DateRangeChoice => ({ option, custom: [null, null] });

describe('dateRangeFor', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('has the options in their fixed order', () => {
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
