import { describe, expect, it } from 'vitest';
import {
  formatNumber,
  formatPatientAddress,
  formatVisitDate,
  patientAddress,
  personName,
} from './patient-format';

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
    expect(formatNumber(12.5, 'pl', 3)).toBe('12,5');
    expect(formatNumber(12.5, 'en', 3)).toBe('12.5');
    expect(formatNumber(160, 'pl', 3)).toBe('160');
  });

  it('rounds to the precision each use asks for', () => {
    expect(formatNumber(2.125, 'pl', 3)).toBe('2,125');
    expect(formatNumber(72.556, 'pl', 2)).toBe('72,56');
    expect(formatNumber(72.5, 'en', 2)).toBe('72.5');
  });
});

describe('personName', () => {
  it('joins the names, or falls back for administrators', () => {
    expect(personName({ firstname: 'Anna', surname: 'Nowak' }, 'Administrator')).toBe('Anna Nowak');
    expect(personName({ firstname: '', surname: '' }, 'Administrator')).toBe('Administrator');
    expect(personName({ firstname: null, surname: null }, 'Administrator')).toBe('Administrator');
    expect(personName(null, 'Administrator')).toBe('Administrator');
  });
});

describe('patientAddress', () => {
  const base = {
    address_street: 'Lipowa',
    address_building: '5',
    address_apartment: '12',
    address_postcode: '00-001',
    address_city: 'Warszawa',
  };
  it('writes building/apartment and leaves out what is missing', () => {
    expect(patientAddress(base)).toBe('Lipowa 5/12, 00-001 Warszawa');
    expect(patientAddress({ ...base, address_apartment: null })).toBe('Lipowa 5, 00-001 Warszawa');
    expect(
      patientAddress({
        address_street: null,
        address_building: null,
        address_apartment: null,
        address_postcode: null,
        address_city: 'Kraków',
      }),
    ).toBe('Kraków');
  });
});
