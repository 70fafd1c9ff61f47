import { isApiError } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/api-errors';

/**
 * What a refused registration or edit means for the screen (docs/product-rules.md "Messages shown
 * to users").
 */
export type SubmitFailure =
  | { kind: 'exist_patient' }
  | { kind: 'validation'; errors: Record<string, string> }
  | { kind: 'forbidden' }
  | { kind: 'not_found' }
  | { kind: 'server' };

export function submitFailure(error: unknown): SubmitFailure {
  if (!isApiError(error)) return { kind: 'server' };
  if (error.status === 'exist_patient') return { kind: 'exist_patient' };
  if (error.httpStatus === 422) return { kind: 'validation', errors: serverFieldErrors(error) };
  if (error.httpStatus === 403) return { kind: 'forbidden' };
  if (error.httpStatus === 404) return { kind: 'not_found' };
  return { kind: 'server' };
}
