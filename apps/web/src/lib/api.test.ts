import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portal/shared';
import { ApiError, buildQuery, createApiClient } from './api';
import type { DownloadedFile } from './api';
import { createSessionStore, memoryStorage, TOKEN_KEY, USER_KEY } from './session-store';

const user: SessionUser = {
  id: 1,
  login: 'admin',
  role: 'admin',
  changed_password_at: '2026-01-01T00:00:00.000Z',
  doctor_id: null,
  firstname: null,
  surname: null,
  unit_id: null,
  permissions: ['audit.read'],
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const expired = () => json(401, { status: 'unauthorized', error: 'Expired Token' });

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: BodyInit | null | undefined;
}

/** A fetch double that answers by a handler and records every call. */
function fakeFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body,
    };
    calls.push(call);
    return handler(call);
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}

function setup(handler: (call: Call) => Response | Promise<Response>, token = 'old') {
  const storage = memoryStorage();
  const session = createSessionStore(storage);
  if (token) session.set({ token, user });
  const { fetch, calls } = fakeFetch(handler);
  const onSessionEnded = vi.fn();
  const api = createApiClient({ fetch, session, getLanguage: () => 'en', onSessionEnded });
  return { api, session, storage, calls, onSessionEnded };
}

describe('buildQuery', () => {
  it('skips empty values and encodes the rest', () => {
    expect(buildQuery({ limit: 20, page: 1, search: '', x: undefined, q: 'a b' })).toBe(
      '?limit=20&page=1&q=a+b',
    );
    expect(buildQuery({})).toBe('');
  });
});

describe('api client', () => {
  it('sends the bearer token and the UI language', async () => {
    const { api, calls } = setup(() => json(200, { data: [], total: 0 }));
    await expect(api.get('/units', { limit: 20 })).resolves.toEqual({ data: [], total: 0 });
    expect(calls[0]?.url).toBe('/api/units?limit=20');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer old');
    expect(calls[0]?.headers.get('Accept-Language')).toBe('en');
    // No JSON content type without a body: Fastify rejects an empty JSON body.
    expect(calls[0]?.headers.get('Content-Type')).toBeNull();
  });

  it('sends JSON bodies with their content type', async () => {
    const { api, calls } = setup(() => json(200, { status: 'success' }));
    await api.post('/units', { name: 'A' });
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.body).toBe('{"name":"A"}');
  });

  it('turns failures into ApiError with status and field errors', async () => {
    const { api } = setup(() =>
      json(422, { status: 'validation_error', errors: { name: ['To pole musi być wypełnione'] } }),
    );
    const error = await api.post('/units', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      httpStatus: 422,
      status: 'validation_error',
      errors: { name: ['To pole musi być wypełnione'] },
    });
  });

  it('maps a network failure to ApiError 0', async () => {
    const { api } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/units')).rejects.toMatchObject({
      httpStatus: 0,
      status: 'network_error',
    });
  });

  it('refreshes once on an expired token and retries with the new token', async () => {
    const { api, calls, session, storage } = setup((call) => {
      if (call.url === '/api/auth/refresh') return json(200, { access_token: 'new', user });
      return call.headers.get('Authorization') === 'Bearer new'
        ? json(200, { ok: true })
        : expired();
    });
    await expect(api.get('/units')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/units',
      'POST /api/auth/refresh',
      'GET /api/units',
    ]);
    expect(calls[1]?.headers.get('Authorization')).toBeNull();
    expect(session.get()?.token).toBe('new');
    expect(storage.getItem(TOKEN_KEY)).toBe('new');
  });

  it('shares one refresh between concurrent requests', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, calls } = setup(async (call) => {
      if (call.url === '/api/auth/refresh') {
        await gate;
        return json(200, { access_token: 'new', user });
      }
      return call.headers.get('Authorization') === 'Bearer new' ? json(200, call.url) : expired();
    });
    const all = Promise.all([api.get('/units'), api.get('/doctors'), api.get('/admins')]);
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1),
    );
    release();
    await expect(all).resolves.toEqual(['/api/units', '/api/doctors', '/api/admins']);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('two tabs whose token expired together refresh once (the cookie is shared)', async () => {
    const storage = memoryStorage();
    createSessionStore(storage).set({ token: 'old', user });
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url === '/api/auth/refresh') return json(200, { access_token: 'new', user });
      return call.headers.get('Authorization') === 'Bearer new' ? json(200, call.url) : expired();
    });
    // One lock for the browser, as Web Locks gives every tab of an origin.
    let queue: Promise<unknown> = Promise.resolve();
    const refreshLock = <T>(work: () => Promise<T>): Promise<T> => {
      const run = queue.then(work);
      queue = run.catch(() => undefined);
      return run;
    };
    const tab = () =>
      createApiClient({
        fetch,
        session: createSessionStore(storage),
        getLanguage: () => 'pl',
        refreshLock,
      });
    const [first, second] = [tab(), tab()];
    await expect(Promise.all([first.get('/units'), second.get('/doctors')])).resolves.toEqual([
      '/api/units',
      '/api/doctors',
    ]);
    // A second refresh with the rotated cookie would end the session on the server.
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('retries without refreshing when another request already refreshed', async () => {
    const { api, calls, session } = setup((call) =>
      call.headers.get('Authorization') === 'Bearer newer' ? json(200, 'ok') : expired(),
    );
    const pending = api.get('/units');
    // Another tab of work stored a fresh token while the first request was in flight.
    session.set({ token: 'newer', user });
    await expect(pending).resolves.toBe('ok');
    expect(calls.some((c) => c.url === '/api/auth/refresh')).toBe(false);
  });

  it('ends the session when the refresh fails', async () => {
    const { api, session, storage, onSessionEnded } = setup((call) =>
      call.url === '/api/auth/refresh' ? json(401, { status: 'unauthorized' }) : expired(),
    );
    await expect(api.get('/units')).rejects.toMatchObject({ httpStatus: 401 });
    expect(session.get()).toBeNull();
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(storage.getItem(USER_KEY)).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('retries only once: a second 401 ends the session', async () => {
    const { api, calls, session, onSessionEnded } = setup((call) =>
      call.url === '/api/auth/refresh' ? json(200, { access_token: 'new', user }) : expired(),
    );
    await expect(api.get('/units')).rejects.toMatchObject({ httpStatus: 401 });
    expect(calls).toHaveLength(3);
    expect(session.get()).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('ends the session on any other 401 without refreshing', async () => {
    const { api, calls, session, onSessionEnded } = setup(() =>
      json(401, { status: 'unauthorized', error: 'Unauthorized' }),
    );
    await expect(api.get('/units')).rejects.toMatchObject({ httpStatus: 401 });
    expect(calls).toHaveLength(1);
    expect(session.get()).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('treats a 401 of a public call (login) as an answer, not as a lost session', async () => {
    const { api, session, onSessionEnded, calls } = setup(() =>
      json(401, { status: 'invalid_credentials', error: 'Invalid credentials' }),
    );
    await expect(
      api.request('/auth/login/admin', { method: 'POST', body: {}, auth: false }),
    ).rejects.toMatchObject({ httpStatus: 401, status: 'invalid_credentials' });
    expect(calls[0]?.headers.get('Authorization')).toBeNull();
    expect(session.get()).not.toBeNull();
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('refresh() without a session resolves null and stores nothing', async () => {
    const { api, session } = setup(() => json(401, { status: 'unauthorized' }), '');
    await expect(api.refresh()).resolves.toBeNull();
    expect(session.get()).toBeNull();
  });

  it('returns blobs for binary responses', async () => {
    const { api } = setup(
      () => new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } }),
    );
    const blob = await api.request<Blob>('/credentials/pdf', {
      method: 'POST',
      body: {},
      responseType: 'blob',
    });
    expect(await blob.text()).toBe('%PDF-1.7');
  });

  it('returns a download with its Content-Disposition, or none', async () => {
    const { api } = setup((call) =>
      call.url.endsWith('/named')
        ? new Response('a;b', {
            headers: { 'Content-Disposition': 'attachment; filename="audit.csv"' },
          })
        : new Response('a;b'),
    );
    const named = await api.request<DownloadedFile>('/named', { responseType: 'file' });
    expect(named.disposition).toBe('attachment; filename="audit.csv"');
    expect(await named.blob.text()).toBe('a;b');
    const unnamed = await api.request<DownloadedFile>('/unnamed', { responseType: 'file' });
    expect(unnamed.disposition).toBeNull();
  });
});
