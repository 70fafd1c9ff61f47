import { describe, expect, it } from 'vitest';
import {
  attachmentProblem,
  extensionOf,
  formatNumber,
  patientAddress,
  personName,
} from './card-format';

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

describe('attachmentProblem', () => {
  it('accepts the spec extensions in any case', () => {
    for (const name of ['a.xls', 'a.xlsx', 'a.pdf', 'a.doc', 'a.DOCX', 'a.txt', 'wyniki.Rtf']) {
      expect(attachmentProblem({ name, size: 10 })).toBeNull();
    }
  });

  it('refuses other types, names without an extension and files over 20 MB', () => {
    expect(attachmentProblem({ name: 'a.exe', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'pdf', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'a.pdf.exe', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'a.pdf', size: 20 * 1024 * 1024 })).toBeNull();
    expect(attachmentProblem({ name: 'a.pdf', size: 20 * 1024 * 1024 + 1 })).toBe('too_large');
  });

  it('extensionOf ignores a leading dot', () => {
    expect(extensionOf('.pdf')).toBe('');
    expect(extensionOf('raport.final.PDF')).toBe('pdf');
  });
});

describe('formatNumber', () => {
  it('uses the decimal comma in Polish', () => {
    expect(formatNumber(72.5, 'pl')).toBe('72,5');
    expect(formatNumber(72.5, 'en')).toBe('72.5');
    expect(formatNumber(180, 'pl')).toBe('180');
  });
});
