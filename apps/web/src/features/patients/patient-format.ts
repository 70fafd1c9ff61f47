import dayjs from 'dayjs';
import type { PatientDetail } from '@portal/shared';

/** Missing values in the list and on cards (spec: visit dates are '-' until visits exist). */
export const EMPTY_VALUE = '-';

type PatientAddress = Pick<
  PatientDetail,
  'address_street' | 'address_building' | 'address_apartment' | 'address_postcode' | 'address_city'
>;

/** ['street building/apartment', 'postcode city'], leaving out what is missing. */
export function addressLines(p: PatientAddress): string[] {
  const number = [p.address_building, p.address_apartment].filter(Boolean).join('/');
  const line1 = [p.address_street, number].filter(Boolean).join(' ');
  const line2 = [p.address_postcode, p.address_city].filter(Boolean).join(' ');
  return [line1, line2].filter(Boolean);
}

/** 'street building/apartment, postcode city'; '-' when empty. */
export function formatPatientAddress(p: PatientAddress): string {
  return addressLines(p).join(', ') || EMPTY_VALUE;
}

/** A visit date as DD.MM.YYYY, with HH:mm when the value carries a time; '-' when unset. */
export function formatVisitDate(value: string | null | undefined): string {
  if (!value || value.startsWith('0000-00-00')) return EMPTY_VALUE;
  const date = dayjs(value);
  if (!date.isValid()) return EMPTY_VALUE;
  return /[T ]\d{2}:\d{2}/.test(value)
    ? date.format('DD.MM.YYYY HH:mm')
    : date.format('DD.MM.YYYY');
}

/** 12.5 -> '12,5' in Polish, '12.5' in English. */
export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    maximumFractionDigits: 3,
  }).format(value);
}

/** The decimal separator typed and shown in number inputs: a comma in Polish. */
export function decimalSeparator(language: string): ',' | '.' {
  return language === 'en' ? '.' : ',';
}
