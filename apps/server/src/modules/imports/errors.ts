import { validationMessage } from '@portal/shared';
import { AppError } from '../../lib/errors.js';

/** At most this many errors are listed; the rest are counted. */
export const MAX_LISTED_ERRORS = 1000;

/**
 * "<file>, wiersz <n>, kolumna <name>: <message>" (docs/product-rules.md "Messages shown to
 * users"), the message from its code.
 */
export function rowError(file: string, row: number, column: string, code: string): string {
  return `${file}, wiersz ${row}, kolumna ${column}: ${validationMessage(code)}`;
}

/** 422 `{status:"error", errors}`: nothing was written. */
export function importFailed(errors: string[]): AppError {
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  if (errors.length > MAX_LISTED_ERRORS) {
    listed.push(`… i ${errors.length - MAX_LISTED_ERRORS} więcej`);
  }
  return new AppError(422, 'error', { errors: listed });
}
