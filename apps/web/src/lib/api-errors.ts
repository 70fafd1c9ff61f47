import { isApiError } from './api';

export type CommonErrorKey =
  | 'common.networkError'
  | 'common.forbidden'
  | 'common.notFound'
  | 'common.validationError'
  | 'common.duplicate'
  | 'common.conflict'
  | 'common.studyLocked'
  | 'common.recordLocked'
  | 'common.unexpectedError';

/** The generic message for a failed call, when the screen has nothing more specific to say. */
export function commonErrorKey(error: unknown): CommonErrorKey {
  if (!isApiError(error)) return 'common.unexpectedError';
  if (error.httpStatus === 0) return 'common.networkError';
  if (error.httpStatus === 403) return 'common.forbidden';
  if (error.httpStatus === 404) return 'common.notFound';
  if (error.httpStatus === 422) return 'common.validationError';
  if (
    error.status === 'exist_doctor' ||
    error.status === 'exist_admin' ||
    error.status === 'exist_monitor'
  )
    return 'common.duplicate';
  if (isStaleVersion(error)) return 'common.conflict';
  // Every write refused by a lock says so, whatever screen made it (ADR 048).
  if (error.httpStatus === 409 && error.status === 'study_locked') return 'common.studyLocked';
  if (error.httpStatus === 409 && error.status === 'record_locked') return 'common.recordLocked';
  return 'common.unexpectedError';
}

/**
 * A save refused because someone else saved the record after this form loaded it (409
 * `conflict`, ADR 018). The form then reloads the record's version and keeps what was typed.
 */
export function isStaleVersion(error: unknown): boolean {
  return isApiError(error) && error.httpStatus === 409 && error.status === 'conflict';
}

/** First message per field of a 422 answer; the server already wrote them in the UI language. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error) || !error.errors) return {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const first = messages[0];
    if (first) result[field] = first;
  }
  return result;
}
