import { formatDateTime, formatDay } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';

/** Missing values in the list and on cards (visit dates are '-' until visits exist). */
export const EMPTY_VALUE = '-';

type PatientAddress = Pick<
  PatientDetail,
  'address_street' | 'address_building' | 'address_apartment' | 'address_postcode' | 'address_city'
>;

/**
 * Whether the server hid the patient's identity and contacts from this user (a monitor, ADR 051):
 * PESEL comes all asterisks, the phone empty, e-mail and address null. The screen then says they
 * are hidden instead of showing them as missing.
 */
export function identityHidden(p: { pesel: string }): boolean {
  return /^\*+$/.test(p.pesel);
}

/** ['street building/apartment', 'postcode city'], leaving out what is missing. */
export function addressLines(p: PatientAddress): string[] {
  const number = [p.address_building, p.address_apartment].filter(Boolean).join('/');
  const line1 = [p.address_street, number].filter(Boolean).join(' ');
  const line2 = [p.address_postcode, p.address_city].filter(Boolean).join(' ');
  return [line1, line2].filter(Boolean);
}

/** 'street building/apartment, postcode city'; '-' when empty. */
export function formatPatientAddress(p: PatientAddress): string {
  return patientAddress(p) || EMPTY_VALUE;
}

/** 'street building/apartment, postcode city', leaving out what the patient did not give. */
export function patientAddress(p: PatientAddress): string {
  return addressLines(p).join(', ');
}

/**
 * "Firstname Surname" of a note's author, a message's sender or a visit's doctor. Administrators
 * have no name in the portal, so an empty result means 'Administrator' (the caller's fallback).
 */
export function personName(
  person: { firstname?: string | null; surname?: string | null } | null | undefined,
  fallback: string,
): string {
  const name = `${person?.firstname ?? ''} ${person?.surname ?? ''}`.trim();
  return name || fallback;
}

/**
 * A visit date as DD.MM.YYYY, with HH:mm when the value carries a time; '-' when unset. A time
 * without a zone is already the Warsaw wall clock; an instant (Z or offset) is shown in Warsaw.
 */
export function formatVisitDate(value: string | null | undefined): string {
  if (!value || value.startsWith('0000-00-00')) return EMPTY_VALUE;
  const match =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/.exec(
      value,
    );
  if (!match?.[1] || Number.isNaN(Date.parse(match[1]))) return EMPTY_VALUE;
  if (!match[2]) return formatDay(match[1]);
  return match[5] ? formatDateTime(value) : `${formatDay(match[1])} ${match[2]}`;
}

/**
 * 12.5 -> '12,5' in Polish, '12.5' in English, rounded to `maxDigits` decimals: each use says how
 * precise its value is (a dose 3, a weight or height 2).
 */
export function formatNumber(value: number, language: string, maxDigits: number): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    maximumFractionDigits: maxDigits,
  }).format(value);
}

/** The decimal separator typed and shown in number inputs: a comma in Polish. */
export function decimalSeparator(language: string): ',' | '.' {
  return language === 'en' ? '.' : ',';
}
