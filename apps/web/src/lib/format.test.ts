import { describe, expect, it } from 'vitest';
import { formatAddress, formatPhone, shortTime, weekdayName } from './format';

describe('format', () => {
  it('shows a phone number with the +48 prefix in groups of three', () => {
    expect(formatPhone('123456789')).toBe('+48 123 456 789');
  });

  it('shows an address as street and number, postcode and city', () => {
    expect(
      formatAddress({ street: 'Długa', building_nr: '5a', postcode: '00-950', city: 'Łódź' }),
    ).toBe('Długa 5a, 00-950 Łódź');
  });

  it('writes times as HH:MM and weekdays in the language, whatever the browser zone', () => {
    expect(shortTime('08:30:00')).toBe('08:30');
    expect(shortTime('08:30')).toBe('08:30');
    expect(weekdayName('2026-11-23', 'pl')).toBe('poniedziałek');
    expect(weekdayName('2026-12-13', 'en')).toBe('Sunday');
  });
});
