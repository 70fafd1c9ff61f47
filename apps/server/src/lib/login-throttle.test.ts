import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle } from '../db/schema.js';
import { openTestDatabase, unique } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import { LoginThrottle, defaultThrottleLimits } from './login-throttle.js';
import type { Reservation, ThrottleLimits } from './login-throttle.js';

const limits: ThrottleLimits = {
  loginAddress: { max: 3, windowMs: 60_000, lockMs: 120_000 },
  address: { max: 6, windowMs: 60_000, lockMs: 120_000 },
  login: { max: 5, windowMs: 300_000, lockMs: 300_000 },
  labAddress: { max: 4, windowMs: 60_000, lockMs: 120_000 },
};

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A throttle on a clock that only moves when the test moves it. */
function throttle(custom: ThrottleLimits = limits) {
  const clock = { now: Date.parse('2026-03-02T08:00:00Z') };
  return { clock, throttle: new LoginThrottle(database.handle.db, custom, () => clock.now) };
}

const retryAfter = (r: Reservation) => (r.allowed ? 0 : r.retryAfter);

async function fail(th: LoginThrottle, times: number, login: string, address: string) {
  for (let i = 0; i < times; i++) expect((await th.reserve(login, address)).allowed).toBe(true);
}

describe('LoginThrottle', () => {
  it('uses the documented defaults: 5 per login and address, 30 per address, 20 per login an hour', () => {
    expect(defaultThrottleLimits).toEqual({
      loginAddress: { max: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
      address: { max: 30, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
      login: { max: 20, windowMs: 60 * 60_000, lockMs: 60 * 60_000 },
      labAddress: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
    });
  });

  it("counts the laboratory connector's wrong passwords per address, apart from sign-ins (ADR 034)", async () => {
    const { clock, throttle: th } = throttle();
    const address = `10.9.${Math.floor(Math.random() * 250)}.1`;
    let checked = 0;
    const attempt = (at: string, ok: boolean) =>
      th.attemptLab(at, () => {
        checked += 1;
        return Promise.resolve({ ok, value: ok ? 'right' : 'wrong' });
      });
    for (let i = 0; i < 4; i++) {
      expect(await attempt(address, false)).toEqual({ allowed: true, ok: false, value: 'wrong' });
    }
    // Locked: even the right password is not checked.
    expect(await attempt(address, true)).toEqual({ allowed: false, retryAfter: 120 });
    expect(checked).toBe(4);
    // Another address, and signing in from the same address, are not locked by it.
    expect(await attempt(`${address}0`, true)).toEqual({ allowed: true, ok: true, value: 'right' });
    expect((await th.reserve(unique('staff'), address)).allowed).toBe(true);
    // Right passwords never count: after ten, three wrong ones still leave one more attempt.
    const other = `${address}1`;
    for (let i = 0; i < 10; i++) expect((await attempt(other, true)).allowed).toBe(true);
    for (let i = 0; i < 3; i++) await attempt(other, false);
    expect(await attempt(other, true)).toEqual({ allowed: true, ok: true, value: 'right' });
    expect(await attempt(other, false)).toMatchObject({ allowed: true, ok: false });
    expect((await attempt(other, true)).allowed).toBe(false);
    clock.now += 120_000;
    expect((await attempt(address, true)).allowed).toBe(true);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'checks at most the limit of wrong connector passwords sent at once on PostgreSQL',
    async () => {
      const { throttle: th } = throttle();
      const address = `10.8.${Math.floor(Math.random() * 250)}.1`;
      let checked = 0;
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          th.attemptLab(address, async () => {
            checked += 1;
            await new Promise((resolve) => setTimeout(resolve, 2));
            return { ok: false, value: null };
          }),
        ),
      );
      expect(checked).toBe(4);
      expect(answers.filter((answer) => !answer.allowed)).toHaveLength(36);
    },
  );

  it('locks a login at one address once its attempts are used, and counts the lock down', async () => {
    const { clock, throttle: th } = throttle();
    const login = unique('login');
    await fail(th, 3, login, '10.0.0.1');
    expect(retryAfter(await th.reserve(login, '10.0.0.1'))).toBe(120);
    // Another address of the same login is not locked by it.
    expect((await th.reserve(login, '10.0.0.2')).allowed).toBe(true);
    clock.now += 119_000;
    expect(retryAfter(await th.reserve(login, '10.0.0.1'))).toBe(1);
    clock.now += 1_000;
    expect((await th.reserve(login, '10.0.0.1')).allowed).toBe(true);
  });

  it('counts the login in any letter case and NFKC form as one', async () => {
    const { throttle: th } = throttle();
    const login = unique('case');
    await th.reserve(login.toUpperCase(), '10.0.1.1');
    await th.reserve(` ${login} `, '10.0.1.1');
    await th.reserve(login.replace('c', '\uff43'), '10.0.1.1');
    expect((await th.reserve(login, '10.0.1.1')).allowed).toBe(false);
  });

  it('locks an address over many logins', async () => {
    const { throttle: th } = throttle();
    for (let i = 0; i < 6; i++) await fail(th, 1, unique('guess'), '10.0.2.1');
    expect(retryAfter(await th.reserve(unique('other'), '10.0.2.1'))).toBe(120);
    expect((await th.reserve(unique('other'), '10.0.2.2')).allowed).toBe(true);
  });

  it('locks a login from every address after its slower limit', async () => {
    const { throttle: th } = throttle();
    const login = unique('spread');
    for (let i = 0; i < 5; i++) await fail(th, 1, login, `10.0.3.${i}`);
    expect(retryAfter(await th.reserve(login, '10.0.3.200'))).toBe(300);
  });

  it('forgives the attempts at the address of a right password, and gives its attempt back', async () => {
    const { throttle: th } = throttle();
    const login = unique('typo');
    await fail(th, 2, login, '10.0.4.1');
    const right = await th.reserve(login, '10.0.4.1');
    expect(right.allowed).toBe(true);
    await th.forgive(right);
    await fail(th, 2, login, '10.0.4.1');
    // 3 attempts were counted for the login, 5 would lock it: two more are allowed.
    await fail(th, 1, login, '10.0.4.1');
    expect((await th.reserve(login, '10.0.4.1')).allowed).toBe(false);
  });

  it('starts afresh after the window and deletes rows that mean nothing any more', async () => {
    const { clock, throttle: th } = throttle();
    const login = unique('window');
    await fail(th, 2, login, '10.0.5.1');
    clock.now += 300_001;
    await fail(th, 2, login, '10.0.5.1');
    clock.now += 600_000;
    // This reservation prunes every expired row, including the ones above.
    await th.reserve(unique('prune'), '10.0.5.2');
    const rows = await database.handle.db.select().from(loginThrottle);
    const at = clock.now;
    expect(rows.every((row) => row.expires_at.getTime() > at - 1)).toBe(true);
  });

  it('lets only the limit through when attempts arrive at once', async () => {
    const { throttle: th } = throttle(defaultThrottleLimits);
    const login = unique('burst');
    const results = await Promise.all(
      Array.from({ length: 60 }, () => th.reserve(login, '10.0.6.1')),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
