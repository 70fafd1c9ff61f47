export interface ThrottleLimits {
  /** Failures of one login within the window before it is locked. */
  perLogin: number;
  /** Failures from one address within the window before it is locked. */
  perAddress: number;
  windowMs: number;
  lockMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = {
  perLogin: 5,
  perAddress: 30,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
};

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

/**
 * Counts failed logins per login and per client address and locks either for a while once it
 * passes its limit. Unknown and known logins are counted alike, so the answer tells nothing about
 * which logins exist. Kept in memory: the portal runs as one process, and a restart clearing the
 * locks is acceptable.
 */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly limits: ThrottleLimits = defaultThrottleLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the caller may try again, or 0 when not locked. */
  retryAfter(login: string, address: string): number {
    const t = this.now();
    const until = Math.max(
      this.lockedUntil(loginKey(login), t),
      this.lockedUntil(addressKey(address), t),
    );
    return until > t ? Math.ceil((until - t) / 1000) : 0;
  }

  recordFailure(login: string, address: string): void {
    const t = this.now();
    this.bump(loginKey(login), this.limits.perLogin, t);
    this.bump(addressKey(address), this.limits.perAddress, t);
    if (this.counters.size > 50_000) this.prune(t);
  }

  recordSuccess(login: string): void {
    this.counters.delete(loginKey(login));
  }

  private lockedUntil(key: string, t: number): number {
    const c = this.counters.get(key);
    return c && c.lockedUntil > t ? c.lockedUntil : 0;
  }

  private bump(key: string, limit: number, t: number): void {
    let c = this.counters.get(key);
    if (!c || t - c.windowStart > this.limits.windowMs) {
      c = { failures: 0, windowStart: t, lockedUntil: 0 };
      this.counters.set(key, c);
    }
    c.failures += 1;
    if (c.failures >= limit) {
      c.lockedUntil = t + this.limits.lockMs;
      c.failures = 0;
      c.windowStart = t;
    }
  }

  private prune(t: number): void {
    for (const [key, c] of this.counters) {
      if (c.lockedUntil <= t && t - c.windowStart > this.limits.windowMs) this.counters.delete(key);
    }
  }
}

const loginKey = (login: string) => `l:${login.trim().toLowerCase()}`;
const addressKey = (address: string) => `a:${address}`;
