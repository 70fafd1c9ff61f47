import { describe, expect, it } from 'vitest';
import {
  ALL_TIME,
  DATE_RANGE_OPTIONS,
  dateChoiceFromUrl,
  dateRangeFor,
  setDateChoiceInUrl,
} from './date-range';
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

describe('the date range in the address', () => {
  const written = (choice: DateRangeChoice) => {
    const params = new URLSearchParams('patientIds=4&page=2');
    setDateChoiceInUrl(params, choice);
    return params;
  };

  it('leaves the address without a range for "from the beginning"', () => {
    expect(written(ALL_TIME).toString()).toBe('patientIds=4&page=2');
    expect(dateChoiceFromUrl(new URLSearchParams(''))).toEqual(ALL_TIME);
  });

  it('reads back every option as written, relative ones without days', () => {
    for (const option of DATE_RANGE_OPTIONS.filter((o) => o !== 'custom')) {
      expect(dateChoiceFromUrl(written(choice(option)))).toEqual(choice(option));
    }
    expect(written(choice('last7')).get('from')).toBeNull();
  });

  it('keeps a custom range by its days, also while only the first is picked', () => {
    const range: DateRangeChoice = { option: 'custom', custom: ['2026-03-01', '2026-03-05'] };
    expect(written(range).toString()).toBe(
      'patientIds=4&page=2&range=custom&from=2026-03-01&to=2026-03-05',
    );
    expect(dateChoiceFromUrl(written(range))).toEqual(range);
    const open: DateRangeChoice = { option: 'custom', custom: ['2026-03-01', null] };
    expect(dateChoiceFromUrl(written(open))).toEqual(open);
  });

  it('drops an unknown option or a day that is not one', () => {
    expect(dateChoiceFromUrl(new URLSearchParams('range=forever'))).toEqual(ALL_TIME);
    expect(dateChoiceFromUrl(new URLSearchParams('range=custom&from=2026-13-45&to=x'))).toEqual({
      option: 'custom',
      custom: [null, null],
    });
  });
});
