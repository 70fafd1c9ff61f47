/**
 * Business refusals raised by services. The error handler turns them into the HTTP code that
 * names them, with the contract's word in `status`; services never see HTTP.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly status: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(status);
    this.name = 'AppError';
  }
}

export const notFound = () => new AppError(404, 'not_found');
export const conflict = (status: string) => new AppError(409, status);
export const forbidden = (status = 'forbidden') => new AppError(403, status);
export const unauthorized = (error = 'Unauthorized') =>
  new AppError(401, 'unauthorized', { error });
/** A validation error on named fields, with message codes from the shared catalogue. */
export const invalid = (errors: Record<string, string[]>) =>
  new AppError(422, 'validation_error', { errors });

/** PostgreSQL's unique_violation, raised by either driver. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = findPgError(error);
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return findPgError(error)?.code === '23503';
}

/** The database's refusal of a change to a locked record (migration 0027, ADR 048). */
export function isRecordLocked(error: unknown): boolean {
  const e = findPgError(error);
  return e?.code === 'P0001' && e.message === 'record_locked';
}

interface PgErrorLike {
  code?: string;
  constraint?: string;
  message?: string;
}

/** Drizzle wraps driver errors; the PostgreSQL error is the cause somewhere down the chain. */
function findPgError(error: unknown): PgErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgErrorLike & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code))
      return candidate;
    current = candidate.cause;
  }
  return undefined;
}
