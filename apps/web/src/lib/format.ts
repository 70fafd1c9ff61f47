import { PHONE_PREFIX } from '@portal/shared';
import type { Unit } from '@portal/shared';

/** '123456789' -> '+48 123 456 789' (a phone is shown with the +48 prefix). */
export function formatPhone(digits: string): string {
  const clean = digits.replace(/\D/g, '');
  const groups = clean.match(/.{1,3}/g) ?? [];
  return [PHONE_PREFIX, ...groups].join(' ');
}

/** `HH:MM:SS` or `HH:MM` from the API -> `HH:MM`, as the screens show and time inputs take. */
export function shortTime(time: string): string {
  return time.slice(0, 5);
}

/** The weekday of a calendar day in the UI language ('poniedziałek', 'Monday'). */
export function weekdayName(day: string, language: string): string {
  // Noon UTC of that day: the same calendar day wherever the browser stands.
  return new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

export type Address = Pick<Unit, 'street' | 'building_nr' | 'postcode' | 'city'>;

/** 'street building_nr, postcode city' */
export function formatAddress(a: Address): string {
  return `${a.street} ${a.building_nr}, ${a.postcode} ${a.city}`;
}
