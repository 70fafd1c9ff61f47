import { importError, importSuccess } from '@portal/shared';
import type { ImportError, ImportSuccess } from '@portal/shared';
import { ApiError } from '../../lib/api';

/** What an import answered: the counts written, or every error of the rejected batch. */
export type ImportOutcome = ImportSuccess | ImportError;

/** 200 and 422 carry the import's answer; anything else is a failure of the call. */
export function outcomeOf(httpStatus: number, body: unknown): ImportOutcome {
  if (httpStatus === 200) {
    const parsed = importSuccess.safeParse(body);
    if (parsed.success) return parsed.data;
  }
  if (httpStatus === 422) {
    const parsed = importError.safeParse(body);
    if (parsed.success) return parsed.data;
  }
  // Refused before reading (too many files, a missing file): field errors as elsewhere.
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const errors =
    record.errors && typeof record.errors === 'object' && !Array.isArray(record.errors)
      ? (record.errors as Record<string, string[]>)
      : undefined;
  throw new ApiError(httpStatus, typeof record.status === 'string' ? record.status : 'error', {
    body,
    ...(errors ? { errors } : {}),
  });
}
