import { describe, expect, it } from 'vitest';
import { LoginThrottle, defaultThrottleLimits } from './login-throttle.js';
import type { ThrottleLimits } from './login-throttle.js';

const limits: ThrottleLimits = { perLogin: 3, perAddress: 5, windowMs: 60_000, lockMs: 120_000 };

/** A throttle on a clock that only moves when the test moves it. */
function throttle(custom: ThrottleLimits = limits) {
  const clock = { now: Date.parse('2026-03-02T08:00:00Z') };
  return { clock, throttle: new LoginThrottle(custom, () => clock.now) };
}

function fail(th: LoginThrottle, times: number, login: string, address: string) {
  for (let i = 0; i < times; i++) th.recordFailure(login, address);
}

describe('LoginThrottle', () => {
  it('uses the documented defaults: 5 per login, 30 per address, 15 minutes', () => {
    expect(defaultThrottleLimits).toEqual({
      perLogin: 5,
      perAddress: 30,
      windowMs: 15 * 60_000,
      lockMs: 15 * 60_000,
    });
  });

  it('locks a login at its limit of failures and counts the lock down', () => {
    const { clock, throttle: th } = throttle();
    fail(th, limits.perLogin - 1, 'jan', '10.0.0.1');
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(0);
    th.recordFailure('jan', '10.0.0.2');
    // Locked for the login, from any address.
    expect(th.retryAfter('jan', '10.0.0.9')).toBe(120);
    expect(th.retryAfter('anna', '10.0.0.1')).toBe(0);

    clock.now += 119_500;
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(1);
    clock.now += 500;
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(0);
  });

  it('rounds the seconds up', () => {
    const { clock, throttle: th } = throttle();
    fail(th, limits.perLogin, 'jan', '10.0.0.1');
    clock.now += 1;
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(120);
  });

  it('compares logins without case and surrounding spaces', () => {
    const { throttle: th } = throttle();
    th.recordFailure('Jan.Kowalski@X.pl', '10.0.0.1');
    th.recordFailure(' jan.kowalski@x.pl ', '10.0.0.2');
    th.recordFailure('JAN.KOWALSKI@X.PL', '10.0.0.3');
    expect(th.retryAfter('jan.kowalski@x.pl', '10.0.0.4')).toBe(120);
  });

  it('locks an address over many logins, and only that address', () => {
    const { throttle: th } = throttle();
    for (let i = 0; i < limits.perAddress; i++) th.recordFailure(`user${i}`, '10.0.0.1');
    expect(th.retryAfter('someone-else', '10.0.0.1')).toBe(120);
    expect(th.retryAfter('someone-else', '10.0.0.2')).toBe(0);
    expect(th.retryAfter('user0', '10.0.0.2')).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const { clock, throttle: th } = throttle();
    fail(th, limits.perLogin - 1, 'jan', '10.0.0.1');
    clock.now += limits.windowMs + 1;
    th.recordFailure('jan', '10.0.0.1');
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(0);
    fail(th, limits.perLogin - 1, 'jan', '10.0.0.1');
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(120);
  });

  it('clears the login counter on success but keeps the address counter', () => {
    const { throttle: th } = throttle();
    fail(th, limits.perLogin - 1, 'jan', '10.0.0.1');
    th.recordSuccess('JAN');
    th.recordFailure('jan', '10.0.0.2');
    expect(th.retryAfter('jan', '10.0.0.2')).toBe(0);

    // The address had perLogin - 1 failures before the success; they still count.
    fail(th, limits.perAddress - (limits.perLogin - 1) - 1, 'other', '10.0.0.1');
    expect(th.retryAfter('x', '10.0.0.1')).toBe(0);
    th.recordFailure('another', '10.0.0.1');
    expect(th.retryAfter('x', '10.0.0.1')).toBe(120);
  });

  it('starts counting afresh after a lock ends', () => {
    const { clock, throttle: th } = throttle();
    fail(th, limits.perLogin, 'jan', '10.0.0.1');
    clock.now += limits.lockMs;
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(0);
    th.recordFailure('jan', '10.0.0.1');
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(0);
  });

  it('reports the longer of the login lock and the address lock', () => {
    const { clock, throttle: th } = throttle();
    fail(th, limits.perLogin, 'jan', '10.0.0.7');
    clock.now += 60_000;
    for (let i = 0; i < limits.perAddress; i++) th.recordFailure(`u${i}`, '10.0.0.1');
    expect(th.retryAfter('jan', '10.0.0.1')).toBe(120);
    expect(th.retryAfter('jan', '10.0.0.9')).toBe(60);
  });
});
