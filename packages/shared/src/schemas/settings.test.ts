import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issuesByField } from '../validation.js';
import { SETTING_DEFAULTS, visitsValue } from './settings.js';

const codes = (value: unknown) => {
  const result = visitsValue.safeParse(value);
  return result.success ? {} : issuesByField(result.error.issues);
};

describe('visit settings', () => {
  it('accept the defaults (480 minutes, 16 visits of 30)', () => {
    expect(codes(SETTING_DEFAULTS.visits)).toEqual({});
  });

  it('refuse a length that leaves part of the day unused, on the length', () => {
    expect(codes({ ...SETTING_DEFAULTS.visits, meeting_length_minutes: 45 })).toEqual({
      meeting_length_minutes: ['length_not_dividing_day'],
    });
    // An end before the start is the only complaint then: there is no day to divide.
    expect(
      codes({ ...SETTING_DEFAULTS.visits, visit_end_hour: 7, meeting_length_minutes: 45 }),
    ).toEqual({ visit_end_hour: ['end_before_start'] });
  });

  it('accept exactly the lengths that divide the day into whole visits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 5, max: 240 }),
        (start, span, length) => {
          const end = Math.min(24, start + span);
          const value = {
            ...SETTING_DEFAULTS.visits,
            visit_start_hour: start,
            visit_end_hour: end,
            meeting_length_minutes: length,
          };
          const whole = Number.isInteger(((end - start) * 60) / length);
          expect(visitsValue.safeParse(value).success).toBe(whole);
        },
      ),
    );
  });
});
