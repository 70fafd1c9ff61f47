import { describe, expect, it } from 'vitest';
import { formatCount, formatMonth, formatRate, monthlyTarget } from './dashboard-format';

describe('dashboard numbers', () => {
  it('writes numbers the Polish way by default', () => {
    // Polish groups thousands with a (narrow) non-breaking space from 10 000 on.
    expect(formatCount(12345, 'pl').replace(/\s/g, ' ')).toBe('12 345');
    expect(formatRate(0.125, 'pl').replace(/\s/g, ' ')).toBe('12,5%');
    expect(formatRate(0.125, 'en')).toBe('12.5%');
    expect(formatMonth('2026-03', 'pl')).toBe('marzec 2026');
  });

  it('spreads a target over the units or the months', () => {
    expect(monthlyTarget({ per_unit_month: 4, total: null }, 3, 6)).toBe(12);
    expect(monthlyTarget({ per_unit_month: null, total: 120 }, 3, 6)).toBe(20);
    expect(monthlyTarget({ per_unit_month: null, total: null }, 3, 6)).toBeNull();
  });
});
