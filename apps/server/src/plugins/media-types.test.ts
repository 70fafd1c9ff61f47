import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import type { ReadyAdmin, TestApp } from '../test/harness.js';

let t: TestApp;
let admin: ReadyAdmin;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
});
afterAll(() => t?.close());

const UNSUPPORTED = { status: 'error', error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' };

describe('request bodies', () => {
  it.each([
    ['text/plain', '{"name":"Poradnia"}'],
    ['text/plain; charset=utf-8', 'Poradnia'],
    ['application/x-www-form-urlencoded', 'name=Poradnia'],
    ['application/xml', '<unit/>'],
  ])('a JSON route answers 415 to %s', async (type, payload) => {
    const res = await t.request('POST', '/api/units', {
      token: admin.session.token,
      body: payload,
      headers: { 'content-type': type },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(UNSUPPORTED);
  });

  it('a JSON route answers 415 to a multipart body; the upload route still takes one', async () => {
    const boundary = '----portal-media-types';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nPoradnia\r\n--${boundary}--\r\n`,
    );
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const json = await t.request('POST', '/api/units', {
      token: admin.session.token,
      body,
      headers,
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual(UNSUPPORTED);
    // The upload route parses it (and asks for the missing fields and file).
    const upload = await t.request('POST', '/api/files', {
      token: admin.session.token,
      body,
      headers,
    });
    expect(upload.statusCode).toBe(422);
  });

  it('JSON and bodiless requests work as before', async () => {
    const json = await t.request('POST', '/api/units', { token: admin.session.token, body: {} });
    expect(json.statusCode).toBe(422);
    const bare = await t.request('GET', '/api/units', { token: admin.session.token });
    expect(bare.statusCode).toBe(200);
  });
});

describe('Cache-Control: no-store', () => {
  it('marks every answer that carries a token or a password, and only those', async () => {
    const fresh = await t.readyAdmin();
    const token = fresh.session.token;
    const other = await t.readyAdmin();
    const doctor = await t.doctor((await t.unit()).id);
    const login = () =>
      t.request('POST', '/api/auth/login/admin', {
        body: { login: fresh.login, password: fresh.password },
      });
    const calls: [string, () => ReturnType<TestApp['request']>][] = [
      ['login', login],
      [
        'failed login',
        () =>
          t.request('POST', '/api/auth/login/admin', {
            body: { login: fresh.login, password: 'zle-haslo' },
          }),
      ],
      ['validate_token', () => t.request('GET', '/api/auth/validate_token/admin', { token })],
      [
        'refresh',
        async () => {
          const cookie = (await login()).cookies.find((c) => c.name.includes('refresh'))!;
          return t.request('POST', '/api/auth/refresh', {
            cookies: { [cookie.name]: cookie.value },
          });
        },
      ],
      [
        'admin login details',
        () => t.request('GET', `/api/admins/print_login_detail/${other.admin.id}`, { token }),
      ],
      [
        'doctor login details',
        () => t.request('GET', `/api/doctors/print_login_detail/${doctor.doctor.id}`, { token }),
      ],
      [
        'credentials pdf',
        () =>
          t.request('POST', '/api/credentials/pdf', {
            token,
            body: { kind: 'doctor', login: doctor.login, password: 'Haslo-123456' },
          }),
      ],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      if (name !== 'failed login') expect(res.statusCode, name).toBe(200);
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    const plain = await t.request('GET', '/api/units', { token });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBeUndefined();
    const change = await t.request('PUT', '/api/change_password', {
      token,
      body: {
        oldPassword: fresh.password,
        newPassword: 'Nowe-Haslo-2026!',
        passwordConfirm: 'Nowe-Haslo-2026!',
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.headers['cache-control']).toBe('no-store');
  });
});
