import { PHONE_PREFIX } from '@portal/shared';
import type { Unit } from '@portal/shared';

/** '123456789' -> '+48 123 456 789' (spec: phone shown with the +48 prefix). */
export function formatPhone(digits: string): string {
  const clean = digits.replace(/\D/g, '');
  const groups = clean.match(/.{1,3}/g) ?? [];
  return [PHONE_PREFIX, ...groups].join(' ');
}

export type Address = Pick<Unit, 'street' | 'building_nr' | 'postcode' | 'city'>;

/** 'street building_nr, postcode city' */
export function formatAddress(a: Address): string {
  return `${a.street} ${a.building_nr}, ${a.postcode} ${a.city}`;
}
