import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatDateTime,
  formatDay,
  formatWarsawDate,
  formatWarsawTime,
  warsawDay,
  warsawDayEnd,
  warsawDayStart,
  warsawToday,
} from './time.js';

const HOUR = 3_600_000;

describe('warsawDay / warsawToday', () => {
  it('is the calendar day in Warsaw, not in UTC', () => {
    // 23:30 UTC on 14 March is already 15 March in Warsaw (CET, UTC+1).
    expect(warsawDay(new Date('2026-03-14T23:30:00Z'))).toBe('2026-03-15');
    // 22:30 UTC on 14 July is 00:30 on 15 July in Warsaw (CEST, UTC+2).
    expect(warsawToday(new Date('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
    expect(warsawToday(new Date('2026-07-14T21:59:00Z'))).toBe('2026-07-14');
    expect(warsawDay('2026-12-31T23:00:00Z')).toBe('2027-01-01');
  });

  it('follows the clock change on the last Sundays of March and October', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(warsawDay(new Date('2026-03-28T22:59:00Z'))).toBe('2026-03-28');
    expect(warsawDay(new Date('2026-03-28T23:00:00Z'))).toBe('2026-03-29');
    expect(warsawDay(new Date('2026-03-29T21:59:00Z'))).toBe('2026-03-29');
    expect(warsawDay(new Date('2026-03-29T22:00:00Z'))).toBe('2026-03-30');
    // 25 October 2026: 03:00 CEST becomes 02:00 CET (01:00 UTC).
    expect(warsawDay(new Date('2026-10-24T21:59:00Z'))).toBe('2026-10-24');
    expect(warsawDay(new Date('2026-10-24T22:00:00Z'))).toBe('2026-10-25');
    expect(warsawDay(new Date('2026-10-25T22:59:00Z'))).toBe('2026-10-25');
    expect(warsawDay(new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26');
  });
});

describe('addDays', () => {
  it('crosses months, years, leap days and clock changes', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-25', 0)).toBe('2026-10-25');
  });
});

describe('warsawDayStart / warsawDayEnd', () => {
  it('are local midnights as instants, winter and summer', () => {
    expect(warsawDayStart('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(warsawDayEnd('2026-01-15').toISOString()).toBe('2026-01-15T23:00:00.000Z');
    expect(warsawDayStart('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(warsawDayEnd('2026-12-31').toISOString()).toBe('2026-12-31T23:00:00.000Z');
  });

  it('make the spring day 23 hours and the autumn day 25 hours long', () => {
    const spring = '2026-03-29';
    expect(warsawDayStart(spring).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(warsawDayEnd(spring).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(warsawDayEnd(spring).getTime() - warsawDayStart(spring).getTime()).toBe(23 * HOUR);
    const autumn = '2026-10-25';
    expect(warsawDayStart(autumn).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(warsawDayEnd(autumn).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(warsawDayEnd(autumn).getTime() - warsawDayStart(autumn).getTime()).toBe(25 * HOUR);
    // The days around them are ordinary.
    expect(warsawDayEnd('2026-03-28').getTime() - warsawDayStart('2026-03-28').getTime()).toBe(
      24 * HOUR,
    );
    expect(warsawDayEnd('2026-10-26').getTime() - warsawDayStart('2026-10-26').getTime()).toBe(
      24 * HOUR,
    );
  });

  it('agree with warsawDay at both edges', () => {
    for (const day of ['2025-03-30', '2025-10-26', '2026-03-29', '2026-10-25', '2026-06-01']) {
      const start = warsawDayStart(day);
      const end = warsawDayEnd(day);
      expect(warsawDay(start)).toBe(day);
      expect(warsawDay(new Date(start.getTime() - 1))).toBe(addDays(day, -1));
      expect(warsawDay(new Date(end.getTime() - 1))).toBe(day);
      expect(warsawDay(end)).toBe(addDays(day, 1));
    }
  });

  it('refuses text that is not a day', () => {
    expect(() => warsawDayStart('15.01.2026')).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('formatDay turns a calendar date into DD.MM.YYYY', () => {
    expect(formatDay('1944-05-14')).toBe('14.05.1944');
    expect(formatDay(null)).toBe('');
    expect(formatDay('unknown')).toBe('unknown');
  });

  it('shows the Warsaw wall clock of an instant', () => {
    expect(formatDateTime('2026-03-10T12:05:00.000Z')).toBe('10.03.2026 13:05');
    expect(formatDateTime('2026-07-10T22:30:00.000Z')).toBe('11.07.2026 00:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatWarsawDate(new Date('2026-07-10T22:30:00.000Z'))).toBe('11.07.2026');
    expect(formatWarsawTime(new Date('2026-07-10T22:30:00.000Z'))).toBe('00:30');
    expect(formatWarsawTime(new Date('2026-01-10T07:05:00.000Z'))).toBe('08:05');
  });

  it('shows the clock change as the wall clock does', () => {
    // 01:59 CET, then three minutes later 03:02 CEST.
    expect(formatDateTime('2026-03-29T00:59:00Z')).toBe('29.03.2026 01:59');
    expect(formatDateTime('2026-03-29T01:02:00Z')).toBe('29.03.2026 03:02');
    // 02:30 happens twice on 25 October: first CEST, then CET.
    expect(formatWarsawTime('2026-10-25T00:30:00Z')).toBe('02:30');
    expect(formatWarsawTime('2026-10-25T01:30:00Z')).toBe('02:30');
    expect(formatWarsawTime('2026-10-25T02:30:00Z')).toBe('03:30');
  });
});
