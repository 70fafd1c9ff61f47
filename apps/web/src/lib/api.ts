import { EXPIRED_TOKEN_ERROR } from '@portal/shared';
import type { LoginResponse } from '@portal/shared';
import type { SessionStore } from './session-store';

/** A failed call: the HTTP code, the contract's word in `status`, and field errors on 422. */
export class ApiError extends Error {
  readonly httpStatus: number;
  readonly status: string;
  readonly errors?: Record<string, string[]>;
  /** The server's `error` text, e.g. "Expired Token" on 401. */
  readonly error?: string;
  /** The whole answer, for refusals that carry data (the reception's 409 `already_received`). */
  readonly body?: unknown;

  constructor(
    httpStatus: number,
    status: string,
    extra: { errors?: Record<string, string[]>; error?: string; body?: unknown } = {},
  ) {
    super(`${httpStatus} ${status}`);
    this.name = 'ApiError';
    this.httpStatus = httpStatus;
    this.status = status;
    if (extra.errors) this.errors = extra.errors;
    if (extra.error) this.error = extra.error;
    if (extra.body !== undefined) this.body = extra.body;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A multipart body (file uploads), sent as it is; the browser sets its Content-Type. */
  form?: FormData;
  query?: Record<string, QueryValue>;
  /** false for public endpoints (login): no bearer token, and a 401 is just an answer. */
  auth?: boolean;
  /** 'file': the body as a blob with its Content-Disposition (a download, lib/download.ts). */
  responseType?: 'json' | 'blob' | 'file';
  signal?: AbortSignal;
}

/** A downloaded file: its content and its Content-Disposition (lib/download.ts reads the name). */
export interface DownloadedFile {
  blob: Blob;
  disposition: string | null;
}

export interface ApiClientOptions {
  fetch: typeof fetch;
  session: SessionStore;
  /** Sent as Accept-Language so that the server's messages match the UI. */
  getLanguage: () => string;
  /** Called after the session was cleared because the server refused it. */
  onSessionEnded?: () => void;
  baseUrl?: string;
  /**
   * Runs the refresh decision under a lock shared by every tab of the browser (Web Locks), so
   * that two tabs whose token expired together refresh once: the server treats a second use of
   * the rotated refresh token as theft and ends the session. Without it, only this tab's requests
   * share one refresh.
   */
  refreshLock?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /** POST of a multipart form (one file and its fields); refreshed and retried like the rest. */
  postForm<T>(path: string, form: FormData): Promise<T>;
  /**
   * Exchanges the refresh cookie for a new access token and stores it. Concurrent callers share
   * one request (the cookie rotates, so a second parallel refresh would fail). Resolves null when
   * the server refuses; the caller decides whether that ends the session.
   */
  refresh(): Promise<LoginResponse | null>;
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function errorFrom(httpStatus: number, body: unknown): ApiError {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const status = typeof record.status === 'string' ? record.status : 'error';
  const extra: { errors?: Record<string, string[]>; error?: string; body?: unknown } = { body };
  if (record.errors && typeof record.errors === 'object') {
    extra.errors = record.errors as Record<string, string[]>;
  }
  if (typeof record.error === 'string') extra.error = record.error;
  return new ApiError(httpStatus, status, extra);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? '/api';
  const { session } = options;
  let refreshing: Promise<LoginResponse | null> | null = null;

  function headers(token: string | null, hasBody: boolean): Headers {
    const result = new Headers({ Accept: 'application/json, application/pdf;q=0.9' });
    result.set('Accept-Language', options.getLanguage());
    // Only with a body: Fastify refuses an empty body declared as JSON.
    if (hasBody) result.set('Content-Type', 'application/json');
    if (token) result.set('Authorization', `Bearer ${token}`);
    return result;
  }

  async function send(path: string, init: RequestOptions, token: string | null) {
    const hasBody = init.body !== undefined && !init.form;
    try {
      return await options.fetch(`${baseUrl}${path}${buildQuery(init.query)}`, {
        method: init.method ?? 'GET',
        headers: headers(token, hasBody),
        body: init.form ?? (hasBody ? JSON.stringify(init.body) : null),
        credentials: 'same-origin',
        signal: init.signal ?? null,
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiError(0, 'network_error');
    }
  }

  function refresh(): Promise<LoginResponse | null> {
    refreshing ??= (async () => {
      try {
        const response = await send('/auth/refresh', { method: 'POST' }, null);
        if (!response.ok) return null;
        const body = (await readJson(response)) as LoginResponse | null;
        if (!body?.access_token || !body.user) return null;
        session.set({ token: body.access_token, user: body.user });
        return body;
      } catch {
        return null;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  /** A token newer than the one a request failed with, refreshing only if nobody else did. */
  async function freshToken(usedToken: string | null): Promise<string | null> {
    const lock = options.refreshLock ?? ((work) => work());
    return lock(async () => {
      // Another request, or another tab, may have refreshed while this one waited.
      const current = session.syncFromStorage()?.token ?? null;
      if (current && current !== usedToken) return current;
      const refreshed = await refresh();
      return refreshed?.access_token ?? null;
    });
  }

  function endSession() {
    session.clear();
    options.onSessionEnded?.();
  }

  async function parse<T>(response: Response, init: RequestOptions): Promise<T> {
    if (init.responseType === 'blob') return (await response.blob()) as T;
    if (init.responseType === 'file') {
      const file: DownloadedFile = {
        blob: await response.blob(),
        disposition: response.headers.get('Content-Disposition'),
      };
      return file as T;
    }
    return (await readJson(response)) as T;
  }

  async function request<T>(path: string, init: RequestOptions = {}): Promise<T> {
    const auth = init.auth !== false;
    const token = auth ? (session.get()?.token ?? null) : null;
    let response = await send(path, init, token);

    if (response.status === 401 && auth) {
      const body = await readJson(response);
      const expired =
        !!body &&
        typeof body === 'object' &&
        (body as Record<string, unknown>).error === EXPIRED_TOKEN_ERROR;
      const retryToken = expired ? await freshToken(token) : null;
      if (!retryToken) {
        endSession();
        throw errorFrom(401, body);
      }
      // Retried once only: a second 401 means the session is really gone.
      response = await send(path, init, retryToken);
      if (response.status === 401) {
        const retryBody = await readJson(response);
        endSession();
        throw errorFrom(401, retryBody);
      }
    }

    if (!response.ok) throw errorFrom(response.status, await readJson(response));
    return parse<T>(response, init);
  }

  return {
    request,
    get: (path, query) => request(path, { query }),
    post: (path, body) => request(path, { method: 'POST', body }),
    put: (path, body) => request(path, { method: 'PUT', body }),
    delete: (path) => request(path, { method: 'DELETE' }),
    postForm: (path, form) => request(path, { method: 'POST', form }),
    refresh,
  };
}
