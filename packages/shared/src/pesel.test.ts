import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildPesel,
  isValidPesel,
  parsePesel,
  peselBirthDate,
  peselChecksumValid,
} from './pesel.js';

describe('PESEL', () => {
  it.each([
    // Known numbers: published examples and hand-checked ones for each century.
    ['44051401359', '1944-05-14', 'M'],
    ['02070803628', '1902-07-08', 'K'],
    ['02270803624', '2002-07-08', 'K'],
    ['81891201013', '1881-09-12', 'M'],
  ])('reads %s as born %s, sex %s', (pesel, birthDate, sex) => {
    expect(parsePesel(pesel)).toEqual({ birthDate, sex });
    expect(peselBirthDate(pesel)).toBe(birthDate);
  });

  it.each([
    ['44051401358', 'wrong check digit'],
    ['4405140135', 'too short'],
    ['440514013599', 'too long'],
    ['4405140135a', 'not digits'],
    ['44133101358', 'month 13 in no century'],
    ['02023012340', 'February 30th'],
    ['', 'empty'],
  ])('refuses %s (%s)', (pesel) => {
    expect(parsePesel(pesel)).toBeNull();
    expect(peselBirthDate(pesel)).toBe('');
  });

  const dates = fc
    .date({
      min: new Date(Date.UTC(1800, 0, 1)),
      max: new Date(Date.UTC(2299, 11, 31)),
      noInvalidDate: true,
    })
    .map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));

  it('round-trips every date of 1800-2299, serial and sex', () => {
    fc.assert(
      fc.property(
        dates,
        fc.integer({ min: 0, max: 9999 }),
        fc.constantFrom('M' as const, 'K' as const),
        (date, serial, sex) => {
          const pesel = buildPesel(date, serial, sex);
          const pad = (n: number) => String(n).padStart(2, '0');
          expect(parsePesel(pesel)).toEqual({
            birthDate: `${date.year}-${pad(date.month)}-${pad(date.day)}`,
            sex,
          });
        },
      ),
    );
  });

  it('detects every single-digit change', () => {
    fc.assert(
      fc.property(
        dates,
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (date, serial, position, delta) => {
          const pesel = buildPesel(date, serial, 'K');
          const changed =
            pesel.slice(0, position) +
            String((Number(pesel[position]) + delta) % 10) +
            pesel.slice(position + 1);
          expect(peselChecksumValid(changed)).toBe(false);
        },
      ),
    );
  });

  it('never accepts a string that is not 11 digits', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^\d{11}$/.test(s));
        expect(isValidPesel(s)).toBe(false);
      }),
    );
  });
});
