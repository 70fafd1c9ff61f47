import { isApiError } from '../../lib/api';

/**
 * What to say when a write is refused because the order moved on under this screen (409,
 * docs/api-conventions.md): the patient's data was deleted (`patient_deleted`: the order is
 * read-only now), or someone else decided it, changed it or it is no longer accepted
 * (`already_decided`, `conflict`,
 * `not_accepted`). Either way the screen reloads the order. Null for any other failure.
 */
export function orderRefusalKey(
  error: unknown,
): 'probeSets.patientDeleted' | 'probeSets.movedOn' | null {
  if (!isApiError(error) || error.httpStatus !== 409) return null;
  return error.status === 'patient_deleted' ? 'probeSets.patientDeleted' : 'probeSets.movedOn';
}
