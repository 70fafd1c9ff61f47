import type { Actor } from '../plugins/policy.js';

/**
 * A monitor (CRA) reads the clinical record without the patient's identity and contacts (ADR
 * 051): PESEL, e-mail, phone number and address. The answers keep their shape: PESEL is all
 * asterisks, the phone number empty, the rest null. (The privacy work adds a permission,
 * `patients.identity.read`, for showing PESEL; a monitor will not hold it either.)
 */
export function hidesIdentity(actor: Actor): boolean {
  return actor.role === 'monitor';
}

export const HIDDEN_PESEL = '***********';

const HIDDEN: Record<string, string | null> = {
  pesel: HIDDEN_PESEL,
  phone_number: '',
  email: null,
  address_street: null,
  address_building: null,
  address_apartment: null,
  address_postcode: null,
  address_city: null,
  // A sample carries a copy of the address for its label (never null there).
  patient_address_street: '',
  patient_address_building: '',
  patient_address_postcode: '',
  patient_address_city: '',
};

/** The row as the actor may see it: identity and contact fields hidden from a monitor. */
export function shownIdentity<T extends object>(actor: Actor, row: T): T {
  if (!hidesIdentity(actor)) return row;
  const shown: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const [key, value] of Object.entries(HIDDEN)) if (key in shown) shown[key] = value;
  // The same keys as the row, only their values replaced by the hidden ones of the same shape.
  return shown as T;
}
