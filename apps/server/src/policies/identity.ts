import { maskPesel } from '@portal/shared';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

/**
 * A monitor (CRA) reads the clinical record without the patient's identity and contacts (ADR
 * 051): PESEL, e-mail, phone number and address. The answers keep their shape: PESEL is all
 * asterisks, the phone number empty, the rest null. A monitor does not hold `patients.identity.read`
 * either, so the masking below applies to it too (ADR 053).
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

/**
 * Whether the actor's answers carry PESELs masked (ADR 053): staff without
 * `patients.identity.read`. A patient reads only the own record, which is not masked.
 */
export function mustMask(actor: Actor): boolean {
  return actor.role !== 'patient' && !can(actor, 'patients.identity.read');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of an answer with every `pesel` field masked, however deep (a list's rows, a visit's
 * patient, an overdue row), so that a new answer cannot leak one by being forgotten here. The
 * answer itself is not changed: a service may hand out an object it also keeps.
 */
export function maskIdentities(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskIdentities);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] =
      key === 'pesel' && typeof field === 'string' ? maskPesel(field) : maskIdentities(field);
  }
  return copy;
}
