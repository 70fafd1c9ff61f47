import { maskPesel } from '@portal/shared';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

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
