import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portal/shared';
import { ApiError, createApiClient } from './api';
import { createSessionStore, memoryStorage } from './session-store';

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

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function setup(answers: Response[]) {
  const session = createSessionStore(memoryStorage());
  session.set({ token: 'old', user });
  const calls: { url: string; headers: Headers; body: unknown }[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push({ url, headers: new Headers(init?.headers), body: init?.body });
    return Promise.resolve(answers.shift() ?? json(500, {}));
  });
  const api = createApiClient({
    fetch,
    session,
    getLanguage: () => 'pl',
  });
  return { api, calls, session };
}

function form() {
  const data = new FormData();
  data.set('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'wynik.pdf');
  data.set('ref_type', 'patient');
  data.set('ref_id', '7');
  return data;
}

describe('postForm', () => {
  it('sends the FormData itself, with the token and no JSON content type', async () => {
    const { api, calls } = setup([json(200, { status: 'success', file: { id: 1 } })]);
    const body = form();
    const answer = await api.postForm<{ status: string }>('/files', body);
    expect(answer.status).toBe('success');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/files');
    expect(calls[0]?.body).toBe(body);
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer old');
    expect(calls[0]?.headers.get('Content-Type')).toBeNull();
  });

  it('refreshes an expired token and sends the form again', async () => {
    const { api, calls } = setup([
      json(401, { status: 'unauthorized', error: 'Expired Token' }),
      json(200, { access_token: 'new', user }),
      json(200, { status: 'success' }),
    ]);
    const body = form();
    await api.postForm('/files', body);
    expect(calls.map((c) => c.url)).toEqual(['/api/files', '/api/auth/refresh', '/api/files']);
    expect(calls[2]?.body).toBe(body);
    expect(calls[2]?.headers.get('Authorization')).toBe('Bearer new');
  });

  it('turns a refusal into an ApiError with the field messages', async () => {
    const { api } = setup([
      json(422, {
        status: 'validation_error',
        errors: { file: ['Nieprawidłowy rodzaj pliku'] },
      }),
    ]);
    const error = await api.postForm('/files', form()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors?.file).toEqual(['Nieprawidłowy rodzaj pliku']);
  });
});
