import { describe, expect, it } from 'vitest';
import { formatNumber, formatPatientAddress, formatVisitDate } from './patient-format';

describe('patient formatting', () => {
  it('writes the address with the apartment after a slash and skips missing parts', () => {
    expect(
      formatPatientAddress({
        address_street: 'ul. Łąkowa',
        address_building: '3',
        address_apartment: '12',
        address_postcode: '90-001',
        address_city: 'Łódź',
      }),
    ).toBe('ul. Łąkowa 3/12, 90-001 Łódź');
    expect(
      formatPatientAddress({
        address_street: null,
        address_building: null,
        address_apartment: null,
        address_postcode: '90-001',
        address_city: 'Łódź',
      }),
    ).toBe('90-001 Łódź');
    expect(
      formatPatientAddress({
        address_street: null,
        address_building: null,
        address_apartment: null,
        address_postcode: null,
        address_city: null,
      }),
    ).toBe('-');
  });

  it("shows visit dates as DD.MM.YYYY (with the time when there is one) and '-' when unset", () => {
    expect(formatVisitDate(null)).toBe('-');
    expect(formatVisitDate('0000-00-00 00:00:00')).toBe('-');
    expect(formatVisitDate('2026-03-05')).toBe('05.03.2026');
    expect(formatVisitDate('2026-03-05 08:30:00')).toBe('05.03.2026 08:30');
  });

  it('writes decimal doses the Polish way', () => {
    expect(formatNumber(12.5, 'pl')).toBe('12,5');
    expect(formatNumber(12.5, 'en')).toBe('12.5');
    expect(formatNumber(160, 'pl')).toBe('160');
  });
});
