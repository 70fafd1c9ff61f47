import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.js';
import { defaultThrottleLimits } from '../../lib/login-throttle.js';
import {
  CHOSEN_PASSWORD,
  REFRESH_COOKIE,
  createTestApp,
  refreshCookieOf,
  unique,
  uniqueEmail,
} from '../../test/harness.js';
import type { TestApp } from '../../test/harness.js';

const INVALID_CREDENTIALS = { status: 'invalid_credentials', error: 'Invalid credentials' };
const UNAUTHORIZED = { status: 'unauthorized', error: 'Unauthorized' };
const EXPIRED = { status: 'unauthorized', error: 'Expired Token' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Makes every access token of the user expired, as if 15 minutes had passed. */
async function expireAccessTokens(userId: number) {
  await t.db
    .update(sessions)
    .set({ access_expires_at: new Date(Date.now() - 1000) })
    .where(eq(sessions.user_id, userId));
}

describe('POST /api/auth/login/admin', () => {
  it('signs an administrator in with an access token, the user and a refresh cookie', async () => {
    const { admin, login, password } = await t.admin();
    const res = await t.request('POST', '/api/auth/login/admin', { body: { login, password } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<{ access_token: string; user: Record<string, unknown> }>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'user']);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: expect.any(Number) as number,
      login,
      role: 'admin',
      changed_password_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      doctor_id: null,
      firstname: null,
      surname: null,
      unit_id: null,
      permissions: expect.arrayContaining(['audit.read', 'patients.all_units']) as string[],
    });
    expect(admin.login).toBe(login);
    const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts the login in any letter case', async () => {
    const { login, password } = await t.admin({ login: unique('Admin.Case') });
    const res = await t.request('POST', '/api/auth/login/admin', {
      body: { login: login.toUpperCase(), password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { login: string } }>().user.login).toBe(login);
  });

  it('answers a wrong password and an unknown login with the same 401', async () => {
    const { login } = await t.admin();
    const wrong = await t.request('POST', '/api/auth/login/admin', {
      body: { login, password: 'not-the-password' },
      remoteAddress: '10.0.1.1',
    });
    const unknown = await t.request('POST', '/api/auth/login/admin', {
      body: { login: unique('nobody'), password: 'not-the-password' },
      remoteAddress: '10.0.1.2',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CREDENTIALS);
    expect(unknown.body).toBe(wrong.body);
    expect(refreshCookieOf(wrong)).toBe('');
  });

  it('does not let a doctor sign in on the administrator endpoint', async () => {
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const res = await t.request('POST', '/api/auth/login/admin', {
      body: { login: doctor.login, password: doctor.password },
      remoteAddress: '10.0.1.3',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_CREDENTIALS);
  });

  it('refuses an empty body with 422 and the required message per field', async () => {
    const res = await t.request('POST', '/api/auth/login/admin', { body: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { login: ['To pole musi być wypełnione'], password: ['To pole musi być wypełnione'] },
    });
  });
});

describe('POST /api/auth/login/doctor', () => {
  it('signs a doctor in by e-mail with the staff record in the user', async () => {
    const unit = await t.unit();
    const { doctor, login, password } = await t.doctor(unit.id, {
      firstname: 'Anna',
      surname: 'Nowak',
    });
    const res = await t.request('POST', '/api/auth/login/doctor', { body: { login, password } });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; user: unknown }>();
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: expect.any(Number) as number,
      login: doctor.email,
      role: 'doctor',
      changed_password_at: null,
      doctor_id: doctor.id,
      firstname: 'Anna',
      surname: 'Nowak',
      unit_id: unit.id,
      permissions: expect.arrayContaining(['patients.read', 'patients.write']) as string[],
    });
    expect((body as { user: { permissions: string[] } }).user.permissions).not.toContain(
      'audit.read',
    );
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const unit = await t.unit();
    const { login } = await t.doctor(unit.id);
    const wrong = await t.request('POST', '/api/auth/login/doctor', {
      body: { login, password: 'zle-haslo-123' },
      remoteAddress: '10.0.2.1',
    });
    const unknown = await t.request('POST', '/api/auth/login/doctor', {
      body: { login: uniqueEmail('nikt'), password: 'zle-haslo-123' },
      remoteAddress: '10.0.2.2',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CREDENTIALS);
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses a deleted doctor with the same 401, even with the right password', async () => {
    const unit = await t.unit();
    const admin = await t.readyAdmin();
    const doctor = await t.readyDoctor(unit.id);
    const del = await t.request('DELETE', `/api/doctors/${doctor.doctor.id}`, {
      token: admin.session.token,
    });
    expect(del.statusCode).toBe(200);
    const res = await t.request('POST', '/api/auth/login/doctor', {
      body: { login: doctor.login, password: doctor.password },
      remoteAddress: '10.0.2.3',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_CREDENTIALS);
  });
});

describe('login throttling', () => {
  // An app of its own whose throttle runs on a clock that moves only when the test moves it.
  let now = Date.parse('2026-03-02T08:00:00Z');
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ now: () => now });
  });
  afterAll(async () => {
    await app?.close();
  });

  const LOCK_SECONDS = defaultThrottleLimits.loginAddress.lockMs / 1000;
  const attempt = (login: string, password: string, remoteAddress: string) =>
    app.request('POST', '/api/auth/login/admin', { body: { login, password }, remoteAddress });

  it('locks one login at one address after 5 failures, with Retry-After, until the lock ends', async () => {
    const { login, password } = await app.admin();
    for (let i = 0; i < defaultThrottleLimits.loginAddress.max; i++) {
      const res = await attempt(login, 'wrong-password', '10.1.0.1');
      expect(res.statusCode).toBe(401);
    }
    const locked = await attempt(login, password, '10.1.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(LOCK_SECONDS));
    expect(locked.json()).toEqual({ status: 'too_many_attempts', retry_after: LOCK_SECONDS });

    // The owner elsewhere is not locked out by a stranger's five wrong passwords.
    const owner = await attempt(login, password, '10.1.0.2');
    expect(owner.statusCode).toBe(200);
    // Another login from the same address is not affected.
    const other = await app.admin();
    expect((await attempt(other.login, other.password, '10.1.0.1')).statusCode).toBe(200);

    now += defaultThrottleLimits.loginAddress.lockMs - 60_000;
    const stillLocked = await attempt(login, password, '10.1.0.1');
    expect(stillLocked.statusCode).toBe(429);
    expect(stillLocked.headers['retry-after']).toBe('60');

    now += 60_000;
    expect((await attempt(login, password, '10.1.0.1')).statusCode).toBe(200);
  });

  it('locks a login from every address after 20 failures spread over addresses', async () => {
    const { login, password } = await app.admin();
    for (let i = 0; i < defaultThrottleLimits.login.max; i++) {
      const res = await attempt(login, 'wrong-password', `10.4.${i}.1`);
      expect(res.statusCode).toBe(401);
    }
    const locked = await attempt(login, password, '10.4.200.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      status: 'too_many_attempts',
      retry_after: defaultThrottleLimits.login.lockMs / 1000,
    });
    now += defaultThrottleLimits.login.lockMs;
    expect((await attempt(login, password, '10.4.200.1')).statusCode).toBe(200);
  });

  it('locks one address after repeated failures over many logins', async () => {
    const { login, password } = await app.admin();
    const address = '10.2.0.1';
    for (let i = 0; i < defaultThrottleLimits.address.max; i++) {
      const res = await attempt(`guess-${i}`, 'wrong-password', address);
      expect(res.statusCode).toBe(401);
    }
    const locked = await attempt(login, password, address);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(LOCK_SECONDS));
    expect(locked.json()).toEqual({ status: 'too_many_attempts', retry_after: LOCK_SECONDS });
    expect((await attempt(login, password, '10.2.0.2')).statusCode).toBe(200);
  });

  it('answers a known and an unknown login alike when locked', async () => {
    const { login } = await app.admin();
    const nobody = unique('nobody');
    for (let i = 0; i < defaultThrottleLimits.loginAddress.max; i++) {
      await attempt(login, 'wrong-password', '10.5.0.1');
      await attempt(nobody, 'wrong-password', '10.5.0.1');
    }
    const known = await attempt(login, 'wrong-password', '10.5.0.1');
    const unknown = await attempt(nobody, 'wrong-password', '10.5.0.1');
    expect(known.statusCode).toBe(429);
    expect(unknown.body).toBe(known.body);
  });

  it('checks at most 5 of 200 wrong passwords sent at once; the rest answer 429', async () => {
    const { login } = await app.admin();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => attempt(login, 'wrong-password', '10.6.0.1')),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(195);
  });

  it('refuses the right password sent with 150 wrong ones once the login is locked', async () => {
    const { login, password } = await app.admin();
    const address = '10.7.0.1';
    const answers = await Promise.all([
      ...Array.from({ length: 150 }, () => attempt(login, 'wrong-password', address)),
      attempt(login, password, address),
    ]);
    const right = answers.at(-1)!;
    const evaluated = answers.filter((res) => res.statusCode !== 429);
    // Only the five reserved attempts reached the password check; the right one may be among
    // them (then it signs in), and otherwise it is refused like the rest.
    expect(evaluated.length).toBe(5);
    expect([200, 429]).toContain(right.statusCode);
    const after = await attempt(login, password, address);
    if (right.statusCode === 429) expect(after.statusCode).toBe(429);
  });
});

describe('GET /api/auth/validate_token/:role', () => {
  it('answers the user and the same token for the right role', async () => {
    const admin = await t.readyAdmin();
    const res = await t.request('GET', '/api/auth/validate_token/admin', {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: admin.session.user, access_token: admin.session.token });

    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const ok = await t.request('GET', '/api/auth/validate_token/doctor', {
      token: doctor.session.token,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ user: doctor.session.user, access_token: doctor.session.token });
  });

  it('answers 401 for the other role', async () => {
    const admin = await t.readyAdmin();
    const unit = await t.unit();
    const doctor = await t.readyDoctor(unit.id);
    const asDoctor = await t.request('GET', '/api/auth/validate_token/doctor', {
      token: admin.session.token,
    });
    expect(asDoctor.statusCode).toBe(401);
    expect(asDoctor.json()).toEqual(UNAUTHORIZED);
    const asAdmin = await t.request('GET', '/api/auth/validate_token/admin', {
      token: doctor.session.token,
    });
    expect(asAdmin.statusCode).toBe(401);
    expect(asAdmin.json()).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for a missing, malformed or unknown token', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer nope' },
    ];
    for (const headers of variants) {
      const res = await t.request('GET', '/api/auth/validate_token/admin', { headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
  });
});

describe('expired access tokens and refresh', () => {
  it('answers Expired Token, and the refresh cookie buys a new token once (rotation)', async () => {
    const admin = await t.readyAdmin();
    await expireAccessTokens(admin.session.user.id);

    const expired = await t.request('GET', '/api/units', { token: admin.session.token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(EXPIRED);

    const refreshed = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: admin.session.refreshCookie },
    });
    expect(refreshed.statusCode).toBe(200);
    const body = refreshed.json<{ access_token: string; user: unknown }>();
    expect(body.user).toEqual(admin.session.user);
    expect(body.access_token).not.toBe(admin.session.token);
    const nextCookie = refreshCookieOf(refreshed);
    expect(nextCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nextCookie).not.toBe(admin.session.refreshCookie);

    const works = await t.request('GET', '/api/units', { token: body.access_token });
    expect(works.statusCode).toBe(200);
    // The expired token does not come back to life.
    const old = await t.request('GET', '/api/units', { token: admin.session.token });
    expect(old.statusCode).toBe(401);

    const replay = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: admin.session.refreshCookie },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(UNAUTHORIZED);

    // The replay ended the whole session: the newer pair stops working too.
    const again = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: nextCookie },
    });
    expect(again.statusCode).toBe(401);
  });

  const refreshWith = (cookie: string) =>
    t.request('POST', '/api/auth/refresh', { cookies: { [REFRESH_COOKIE]: cookie } });

  it('ends the whole session when a rotated refresh token comes back, and only that session', async () => {
    const admin = await t.readyAdmin();
    const otherDevice = await t.login('admin', admin.login, admin.password);
    const r1 = await refreshWith(admin.session.refreshCookie);
    expect(r1.statusCode).toBe(200);
    const r2 = await refreshWith(refreshCookieOf(r1));
    expect(r2.statusCode).toBe(200);
    const access2 = r2.json<{ access_token: string }>().access_token;
    expect((await t.request('GET', '/api/units', { token: access2 })).statusCode).toBe(200);

    // The first token, two generations old, is presented again (a thief's copy).
    const reuse = await refreshWith(admin.session.refreshCookie);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual(UNAUTHORIZED);
    expect(refreshCookieOf(reuse)).toBe('');

    expect((await refreshWith(refreshCookieOf(r2))).statusCode).toBe(401);
    const access = await t.request('GET', '/api/units', { token: access2 });
    expect(access.statusCode).toBe(401);
    expect(access.json()).toEqual(UNAUTHORIZED);
    // The user's session on another device began with another sign-in and goes on.
    expect((await t.request('GET', '/api/units', { token: otherDevice.token })).statusCode).toBe(
      200,
    );
    expect((await refreshWith(otherDevice.refreshCookie)).statusCode).toBe(200);
  });

  it('lets one of many parallel refreshes with one token win, and then ends the session', async () => {
    const admin = await t.readyAdmin();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => refreshWith(admin.session.refreshCookie)),
    );
    const won = answers.filter((res) => res.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((res) => res.statusCode === 401)).toHaveLength(50 - won.length);
    // The losers were reuse: whatever the winner got no longer works.
    for (const res of won) {
      expect((await refreshWith(refreshCookieOf(res))).statusCode).toBe(401);
      const token = res.json<{ access_token: string }>().access_token;
      expect((await t.request('GET', '/api/units', { token })).statusCode).toBe(401);
    }
  });

  it('answers 401 to a refresh without a cookie or with an unknown one', async () => {
    const none = await t.request('POST', '/api/auth/refresh');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(UNAUTHORIZED);
    const unknown = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: 'x'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(UNAUTHORIZED);
  });

  it('refuses a refresh token past its own expiry', async () => {
    const admin = await t.readyAdmin();
    await t.db
      .update(sessions)
      .set({ refresh_expires_at: new Date(Date.now() - 1000) })
      .where(eq(sessions.user_id, admin.session.user.id));
    const res = await t.request('POST', '/api/auth/refresh', {
      cookies: { [REFRESH_COOKIE]: admin.session.refreshCookie },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends every session of the user and clears the cookie', async () => {
    const { login, password } = await t.admin();
    const first = await t.login('admin', login, password);
    const second = await t.login('admin', login, password);
    const other = await t.readyAdmin();

    const res = await t.request('POST', '/api/auth/logout', { token: first.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success' });
    const cleared = res.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cleared?.value).toBe('');

    for (const session of [first, second]) {
      const units = await t.request('GET', '/api/units', { token: session.token });
      expect(units.statusCode).toBe(401);
      expect(units.json()).toEqual(UNAUTHORIZED);
      const refresh = await t.request('POST', '/api/auth/refresh', {
        cookies: { [REFRESH_COOKIE]: session.refreshCookie },
      });
      expect(refresh.statusCode).toBe(401);
    }
    // Other users keep their sessions.
    const others = await t.request('GET', '/api/units', { token: other.session.token });
    expect(others.statusCode).toBe(200);
  });
});

describe('PUT /api/change_password', () => {
  const put = (token: string, body: unknown, headers?: Record<string, string>) =>
    t.request('PUT', '/api/change_password', { token, body, headers: headers ?? {} });

  it('refuses a wrong current password', async () => {
    const admin = await t.readyAdmin();
    const res = await put(admin.session.token, {
      oldPassword: 'not-my-password',
      newPassword: 'Nowe-Haslo-123',
      passwordConfirm: 'Nowe-Haslo-123',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { oldPassword: ['Niepoprawne hasło'] },
    });
  });

  it('refuses a new password equal to the old one and a confirmation that differs, in Polish', async () => {
    const admin = await t.readyAdmin();
    const res = await put(admin.session.token, {
      oldPassword: admin.password,
      newPassword: admin.password,
      passwordConfirm: 'something-else',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        newPassword: ['Pole musi być inne niż stare hasło'],
        passwordConfirm: ['Pole musi być takie samo jak nowe hasło.'],
      },
    });
  });

  it('answers in English when asked for it', async () => {
    const admin = await t.readyAdmin();
    const mismatch = await put(
      admin.session.token,
      { oldPassword: admin.password, newPassword: admin.password, passwordConfirm: 'other-value' },
      { 'accept-language': 'en' },
    );
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({
      status: 'validation_error',
      errors: {
        newPassword: ['The new password must differ from the old one'],
        passwordConfirm: ['The field must match the new password.'],
      },
    });
    const wrong = await put(
      admin.session.token,
      {
        oldPassword: 'not-my-password',
        newPassword: 'Nowe-Haslo-123',
        passwordConfirm: 'Nowe-Haslo-123',
      },
      { 'accept-language': 'en-GB,en;q=0.9' },
    );
    expect(wrong.json()).toEqual({
      status: 'validation_error',
      errors: { oldPassword: ['Incorrect password'] },
    });
  });

  it('requires every field and at least 8 characters', async () => {
    const admin = await t.readyAdmin();
    const empty = await put(admin.session.token, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      status: 'validation_error',
      errors: {
        oldPassword: ['To pole musi być wypełnione'],
        newPassword: ['To pole musi być wypełnione'],
        passwordConfirm: ['To pole musi być wypełnione'],
      },
    });
    const short = await put(admin.session.token, {
      oldPassword: admin.password,
      newPassword: 'krotkie',
      passwordConfirm: 'krotkie',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toEqual({
      status: 'validation_error',
      errors: { newPassword: ['Hasło musi mieć co najmniej 8 znaków'] },
    });
  });

  it('changes the password, ends earlier sessions and returns a working new token', async () => {
    const admin = await t.readyAdmin();
    const second = await t.login('admin', admin.login, admin.password);
    const newPassword = 'Zupelnie-Nowe-Haslo-1';
    const res = await put(admin.session.token, {
      oldPassword: admin.password,
      newPassword,
      passwordConfirm: newPassword,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      status: string;
      access_token: string;
      user: { changed_password_at: string };
    }>();
    expect(body.status).toBe('success');
    expect(body.user).toEqual({
      ...admin.session.user,
      changed_password_at: expect.any(String) as string,
    });
    expect(Date.parse(body.user.changed_password_at)).toBeGreaterThanOrEqual(
      Date.parse(admin.session.user.changed_password_at!),
    );
    expect(refreshCookieOf(res)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    for (const session of [admin.session, second]) {
      const old = await t.request('GET', '/api/units', { token: session.token });
      expect(old.statusCode).toBe(401);
      const refresh = await t.request('POST', '/api/auth/refresh', {
        cookies: { [REFRESH_COOKIE]: session.refreshCookie },
      });
      expect(refresh.statusCode).toBe(401);
    }
    const fresh = await t.request('GET', '/api/units', { token: body.access_token });
    expect(fresh.statusCode).toBe(200);

    const oldLogin = await t.request('POST', '/api/auth/login/admin', {
      body: { login: admin.login, password: admin.password },
      remoteAddress: '10.3.0.1',
    });
    expect(oldLogin.statusCode).toBe(401);
    await t.login('admin', admin.login, newPassword);
  });
});

describe('forced password change', () => {
  it('allows only change_password and the auth calls until the password is changed', async () => {
    const unit = await t.unit();
    const { login, password } = await t.doctor(unit.id);
    const session = await t.login('doctor', login, password);
    expect(session.user.changed_password_at).toBeNull();

    const units = await t.request('GET', '/api/units', { token: session.token });
    expect(units.statusCode).toBe(403);
    expect(units.json()).toEqual({ status: 'password_change_required' });

    const validate = await t.request('GET', '/api/auth/validate_token/doctor', {
      token: session.token,
    });
    expect(validate.statusCode).toBe(200);

    const changed = await t.request('PUT', '/api/change_password', {
      token: session.token,
      body: {
        oldPassword: password,
        newPassword: CHOSEN_PASSWORD,
        passwordConfirm: CHOSEN_PASSWORD,
      },
    });
    expect(changed.statusCode).toBe(200);
    const body = changed.json<{
      access_token: string;
      user: { changed_password_at: string | null };
    }>();
    expect(body.user.changed_password_at).toEqual(expect.any(String));

    const after = await t.request('GET', '/api/units', { token: body.access_token });
    expect(after.statusCode).toBe(200);
  });

  it('applies to an administrator created with a generated password too', async () => {
    const { login, password } = await t.admin({ ready: false });
    const session = await t.login('admin', login, password);
    const res = await t.request('GET', '/api/admins', { token: session.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'password_change_required' });
  });
});

describe('stored secrets', () => {
  it('keeps only digests of tokens and an argon2id hash of the password', async () => {
    const admin = await t.readyAdmin();
    const [row] = await t.db
      .select({ hash: users.password_hash })
      .from(users)
      .where(eq(users.id, admin.session.user.id));
    expect(row?.hash).toMatch(/^\$argon2id\$/);
    const rows = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.user_id, admin.session.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.access_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.access_token_hash).not.toContain(admin.session.token);
    expect(rows[0]?.refresh_token_hash).not.toBe(admin.session.refreshCookie);
  });
});
