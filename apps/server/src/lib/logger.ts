import type { FastifyServerOptions } from 'fastify';

/** The longest log line written; a longer one is replaced by a short line that says so. */
export const LOG_LINE_MAX = 8 * 1024;
/** The longest message of an error kept in the log. */
const ERROR_MESSAGE_MAX = 200;
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Where log lines go: tests pass a stream that collects them. */
export interface LogDestination {
  write(line: string): void;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  routine?: unknown;
  stack?: unknown;
  cause?: unknown;
  statusCode?: unknown;
}

/** True when the error or one of its causes came from the database (SQLSTATE or a Drizzle wrapper). */
function fromDatabase(error: ErrorLike, depth = 0): boolean {
  if (depth > 5) return false;
  if (typeof error.code === 'string' && SQLSTATE.test(error.code)) return true;
  if (typeof error.name === 'string' && error.name.startsWith('Drizzle')) return true;
  return error.cause && typeof error.cause === 'object'
    ? fromDatabase(error.cause, depth + 1)
    : false;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * What an error may say in the log: its kind, code, constraint and where it was thrown, never
 * the values it carries. Drizzle's message holds the SQL with its parameters (PESEL, names, a
 * whole uploaded file) and PostgreSQL's detail repeats the key (`Key (pesel)=(…)`), so a database
 * error keeps no message, detail or parameters at all; any other message is shortened.
 */
export interface SafeError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function safeError(error: unknown, depth = 0): SafeError {
  if (!error || typeof error !== 'object') return { type: typeof error, message: '', stack: '' };
  const e = error as ErrorLike;
  const database = fromDatabase(e);
  const out: SafeError = { type: text(e.name) ?? 'Error', message: '', stack: '' };
  for (const key of ['code', 'constraint', 'table', 'column', 'routine'] as const) {
    const value = text(e[key]);
    if (value) out[key] = value.slice(0, 100);
  }
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  const message = text(e.message);
  out.message = database
    ? 'database error (withheld)'
    : (message ?? '').slice(0, ERROR_MESSAGE_MAX);
  // The stack's first line repeats the message; the frames say only where it happened.
  const stack = text(e.stack);
  if (stack)
    out.stack = stack
      .split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 15)
      .join('\n');
  if (e.cause && depth < 3) out.cause = safeError(e.cause, depth + 1);
  return out;
}

/**
 * Keeps every line within LOG_LINE_MAX: an oversized line (whatever put it there) is replaced by
 * its level, time, request id and message, cut short, and the length it had.
 */
export function capLine(line: string): string {
  if (line.length <= LOG_LINE_MAX) return line;
  let head: Record<string, unknown> = {};
  try {
    head = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // Not JSON: only the length is kept.
  }
  const kept: Record<string, unknown> = { truncated: true, length: line.length };
  for (const key of ['level', 'time', 'pid', 'hostname', 'reqId']) {
    if (key in head) kept[key] = head[key];
  }
  if (typeof head.msg === 'string') kept.msg = head.msg.slice(0, 500);
  return `${JSON.stringify(kept)}\n`;
}

/**
 * Request logs carry the path without its query string (searches hold patient names and PESEL
 * numbers) and never the Authorization header, cookies, bodies or SQL parameters; no line is
 * longer than LOG_LINE_MAX.
 */
export function loggerOptions(
  level: string,
  stream?: LogDestination,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return {
          id: request.id,
          method: request.method,
          path: (request.url.split('?')[0] ?? '').slice(0, 500),
        };
      },
      err: (error: unknown) => safeError(error),
      error: (error: unknown) => safeError(error),
    },
    hooks: { streamWrite: capLine },
  };
}
