import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { TestApp } from '../../test/harness.js';
import { REFRESH_COOKIE, SIGNED_IN_COOKIE } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const cookie = (res: Awaited<ReturnType<TestApp['request']>>, name: string) =>
  res.cookies.find((c) => c.name === name);

describe('session cookies', () => {
  it('sets the httpOnly refresh cookie and a readable signed-in marker, and clears both on logout', async () => {
    const { login, password } = await t.admin();
    const res = await t.request('POST', '/api/auth/login/admin', { body: { login, password } });
    expect(cookie(res, REFRESH_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
    });
    const marker = cookie(res, SIGNED_IN_COOKIE);
    expect(marker).toMatchObject({ value: '1', path: '/', sameSite: 'Strict' });
    expect(marker?.httpOnly).toBeFalsy();

    const token = res.json<{ access_token: string }>().access_token;
    const out = await t.request('POST', '/api/auth/logout', { token });
    expect(cookie(out, REFRESH_COOKIE)?.value).toBe('');
    expect(cookie(out, SIGNED_IN_COOKIE)?.value).toBe('');
  });

  it('clears the marker when a refresh is refused', async () => {
    const res = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: 'stale' },
    });
    expect(res.statusCode).toBe(401);
    expect(cookie(res, SIGNED_IN_COOKIE)?.value).toBe('');
    const none = await t.request('POST', '/api/auth/refresh');
    expect(none.statusCode).toBe(401);
  });
});
