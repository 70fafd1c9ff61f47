import { warsawDay } from '@portal/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { warsawToday } from './warsaw-today.js';

describe('warsawToday', () => {
  it('answers what warsawDay answers, in any order of instants (midnights and DST included)', () => {
    const instants = [
      Date.UTC(2026, 2, 28, 22, 59, 59, 999), // 23:59:59.999 in Warsaw before the spring change
      Date.UTC(2026, 2, 28, 23, 0, 0, 0), // its midnight
      Date.UTC(2026, 9, 24, 21, 59, 59, 999), // before the autumn midnight (UTC+2)
      Date.UTC(2026, 9, 24, 22, 0, 0, 0),
      Date.UTC(2026, 9, 25, 22, 59, 59, 999), // after the change (UTC+1)
      Date.UTC(2026, 9, 25, 23, 0, 0, 0),
    ];
    const instant = fc.oneof(
      fc.constantFrom(...instants),
      fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (times) => {
        for (const now of times) expect(warsawToday(now)).toBe(warsawDay(now));
      }),
      { numRuns: 300 },
    );
  });
});
