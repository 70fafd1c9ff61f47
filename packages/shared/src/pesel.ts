/**
 * PESEL, the Polish national identification number: YYMMDDZZZXQ, where the month carries the
 * century (+80 for 1800s, +0 1900s, +20 2000s, +40 2100s, +60 2200s), X's parity gives the sex
 * and Q is a check digit over the first ten digits with weights 9,7,3,1 repeating.
 */
export const PESEL_LENGTH = 11;
const WEIGHTS = [9, 7, 3, 1, 9, 7, 3, 1, 9, 7] as const;
const CENTURY_BY_OFFSET: Record<number, number> = {
  80: 1800,
  0: 1900,
  20: 2000,
  40: 2100,
  60: 2200,
};

export type Sex = 'M' | 'K';

export interface PeselInfo {
  /** Birth date as YYYY-MM-DD. */
  birthDate: string;
  /** 'M' (mężczyzna) for an odd tenth digit, 'K' (kobieta) for an even one. */
  sex: Sex;
}

export function peselChecksumValid(pesel: string): boolean {
  if (!/^\d{11}$/.test(pesel)) return false;
  const digits = [...pesel].map(Number);
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * digits[i]!, 0);
  return sum % 10 === digits[10];
}

/** Birth date and sex of a valid PESEL, or null when the number is not a valid PESEL. */
export function parsePesel(pesel: string): PeselInfo | null {
  if (!peselChecksumValid(pesel)) return null;
  const yy = Number(pesel.slice(0, 2));
  const mm = Number(pesel.slice(2, 4));
  const dd = Number(pesel.slice(4, 6));
  const offset = Math.floor(mm / 20) * 20;
  const century = CENTURY_BY_OFFSET[offset];
  const month = mm - offset;
  if (century === undefined || month < 1 || month > 12) return null;
  const year = century + yy;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (dd < 1 || dd > daysInMonth) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    birthDate: `${year}-${pad(month)}-${pad(dd)}`,
    sex: Number(pesel[9]) % 2 === 1 ? 'M' : 'K',
  };
}

export function isValidPesel(pesel: string): boolean {
  return parsePesel(pesel) !== null;
}

/** The birth date shown beside a PESEL field: YYYY-MM-DD when valid, else empty. */
export function peselBirthDate(pesel: string): string {
  return parsePesel(pesel)?.birthDate ?? '';
}

/** Builds a valid PESEL for a date, serial (0-999) and sex; for tests and demo data. */
export function buildPesel(
  date: { year: number; month: number; day: number },
  serial: number,
  sex: Sex,
): string {
  const offset = Object.entries(CENTURY_BY_OFFSET).find(
    ([, c]) => c === Math.floor(date.year / 100) * 100,
  )?.[0];
  if (offset === undefined) throw new RangeError('PESEL covers the years 1800-2299');
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const sexDigit = (serial % 5) * 2 + (sex === 'M' ? 1 : 0);
  const body =
    pad(date.year % 100) +
    pad(date.month + Number(offset)) +
    pad(date.day) +
    pad(Math.floor(serial / 10) % 1000, 3) +
    String(sexDigit);
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(body[i]), 0);
  return body + String(sum % 10);
}

/**
 * The PESEL as lists show it to a user without `patients.identity.read` (ADR 053): the first
 * six digits (the birth date), then `*****`. The one masking function of the portal.
 */
export function maskPesel(pesel: string): string {
  return `${pesel.slice(0, 6)}*****`;
}
