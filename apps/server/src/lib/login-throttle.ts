import { createHash } from 'node:crypto';
import { normalizeLogin } from '@portal/shared';
import { TransactionRollbackError, inArray, sql } from 'drizzle-orm';
import { inTransaction } from '../db/client.js';
import type { Database } from '../db/client.js';
import { loginThrottle } from '../db/schema.js';

/** At most `max` attempts within `windowMs`; the attempt that reaches it locks for `lockMs`. */
export interface ThrottleLimit {
  max: number;
  windowMs: number;
  lockMs: number;
}

export interface ThrottleLimits {
  /** One login from one address: the user's own typos, or a guesser at one address. */
  loginAddress: ThrottleLimit;
  /** One address, any logins: a guesser trying many accounts. */
  address: ThrottleLimit;
  /**
   * One login from any address: bounds guessing spread over many addresses. Slower than the
   * per-address limit, so five wrong passwords from elsewhere never lock the owner out.
   */
  login: ThrottleLimit;
  /**
   * The laboratory connector's password from one address (ADR 034). Its own counter: a
   * misconfigured connector must not lock the staff at the same address out of signing in.
   */
  labAddress: ThrottleLimit;
}

const MINUTE = 60_000;

export const defaultThrottleLimits: ThrottleLimits = {
  loginAddress: { max: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  address: { max: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  login: { max: 20, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
  labAddress: { max: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
};

type Kind = keyof ThrottleLimits;

interface Key {
  kind: Kind;
  digest: string;
}

/** An attempt that may go on to the password check; `forgive` it when the password was right. */
export type Reservation = { allowed: true; keys: Key[] } | { allowed: false; retryAfter: number };

/** A laboratory connector's attempt: refused (locked), or checked with what `check` found. */
export type LabAttempt<T> =
  { allowed: false; retryAfter: number } | { allowed: true; ok: boolean; value: T };

/** Rows deleted per attempt at most: keeps the clean-up cheap however many rows have expired. */
const PRUNE_BATCH = 100;

/**
 * Counts login attempts in PostgreSQL (ADR 016). An attempt is reserved before the password is
 * hashed, in one short transaction whose upsert locks the counter rows, so parallel requests
 * (on any number of connections or API nodes) are counted one after another: of 200 wrong
 * passwords sent at once, at most `loginAddress.max` are ever checked. A right password gives its
 * attempt back. Unknown logins are counted like known ones. The laboratory connector's password
 * has a key of its own, checked inside the counting transaction (`attemptLab`, ADR 034).
 */
export class LoginThrottle {
  constructor(
    private readonly db: Database,
    private readonly limits: ThrottleLimits = defaultThrottleLimits,
    private readonly now: () => number = Date.now,
  ) {}

  reserve(login: string, address: string): Promise<Reservation> {
    return this.reserveKeys(keysOf(login, address));
  }

  /**
   * One attempt at the laboratory connector's password from `address` (ADR 034), counted per
   * address only (one shared login is all there is). `check` compares the password inside the
   * transaction that counted the attempt, whose upsert locks the address's row: parallel
   * attempts are counted and checked one after another, so of a burst at most the limit are
   * checked. A right password rolls the count back (it never counted, as `forgive` would have
   * it); a wrong one commits it. A locked address is refused before `check` runs.
   *
   * Not `reserve` + `forgive`: the connector is called for every message, and those round trips
   * and two commits cost about as much as storing the message; a rollback writes nothing.
   * Attempts go on being counted while the key is locked, so an attempt may be checked exactly
   * when its count is within the limit; the one that reaches the limit sets the lock. Expired
   * rows are left to the sign-ins' clean-up.
   */
  async attemptLab<T>(
    address: string,
    check: (tx: Database) => Promise<{ ok: boolean; value: T }>,
  ): Promise<LabAttempt<T>> {
    const limit = this.limits.labAddress;
    const digest = digestOf('lab+address', address);
    const t = this.now();
    const at = new Date(t).toISOString();
    const windowEnds = new Date(t + limit.windowMs);
    const lockEnds = new Date(t + limit.lockMs);
    const firstLocks = 1 >= limit.max;
    const lockedUntil = sql`case
      when ${over(at)} then excluded.locked_until
      when ${loginThrottle.locked_until} > ${at}::timestamptz then ${loginThrottle.locked_until}
      when ${loginThrottle.attempts} + 1 >= ${limit.max} then ${lockEnds.toISOString()}::timestamptz
      else null end`;
    let passed: { allowed: true; ok: true; value: T } | null = null;
    try {
      return await inTransaction(this.db, null, async (tx) => {
        const [row] = await tx
          .insert(loginThrottle)
          .values({
            key: digest,
            attempts: 1,
            window_ends_at: windowEnds,
            locked_until: firstLocks ? lockEnds : null,
            expires_at: firstLocks && lockEnds > windowEnds ? lockEnds : windowEnds,
          })
          .onConflictDoUpdate({
            target: loginThrottle.key,
            set: {
              attempts: sql`case when ${over(at)} then 1 else ${loginThrottle.attempts} + 1 end`,
              window_ends_at: sql`case when ${over(at)} then excluded.window_ends_at else ${loginThrottle.window_ends_at} end`,
              locked_until: lockedUntil,
              expires_at: sql`greatest(
                case when ${over(at)} then excluded.expires_at else ${loginThrottle.expires_at} end,
                ${lockedUntil})`,
            },
          })
          .returning({
            attempts: loginThrottle.attempts,
            locked_until: loginThrottle.locked_until,
          });
        if (row && row.attempts > limit.max) {
          const until = row.locked_until?.getTime() ?? t;
          return {
            allowed: false as const,
            retryAfter: Math.max(1, Math.ceil((until - t) / 1000)),
          };
        }
        const result = await check(tx);
        if (!result.ok) return { allowed: true as const, ok: false, value: result.value };
        passed = { allowed: true, ok: true, value: result.value };
        return tx.rollback();
      });
    } catch (error) {
      if (passed && error instanceof TransactionRollbackError) return passed;
      throw error;
    }
  }

  private async reserveKeys(unsorted: Key[]): Promise<Reservation> {
    const t = this.now();
    const at = new Date(t).toISOString();
    // Sorted, so that concurrent reservations lock shared rows in one order (no deadlock).
    const keys = [...unsorted].sort((a, b) => a.digest.localeCompare(b.digest));
    const result = await inTransaction(this.db, null, async (tx) => {
      const rows = await tx
        .insert(loginThrottle)
        .values(
          keys.map(({ kind, digest }) => {
            const windowEnds = new Date(t + this.limits[kind].windowMs);
            return { key: digest, attempts: 0, window_ends_at: windowEnds, expires_at: windowEnds };
          }),
        )
        .onConflictDoUpdate({
          target: loginThrottle.key,
          // A row whose window and lock are over starts afresh; the no-op otherwise still locks it.
          set: {
            attempts: sql`case when ${over(at)} then 0 else ${loginThrottle.attempts} end`,
            window_ends_at: sql`case when ${over(at)} then excluded.window_ends_at else ${loginThrottle.window_ends_at} end`,
            locked_until: sql`case when ${over(at)} then null else ${loginThrottle.locked_until} end`,
            expires_at: sql`case when ${over(at)} then excluded.expires_at else ${loginThrottle.expires_at} end`,
          },
        })
        .returning();
      const lockedUntil = Math.max(0, ...rows.map((row) => row.locked_until?.getTime() ?? 0));
      if (lockedUntil > t)
        return { allowed: false as const, retryAfter: Math.ceil((lockedUntil - t) / 1000) };
      for (const row of rows) {
        const limit = this.limits[keys.find((k) => k.digest === row.key)!.kind];
        const attempts = row.attempts + 1;
        const locks = attempts >= limit.max;
        const lockEnds = new Date(t + limit.lockMs);
        await tx
          .update(loginThrottle)
          .set({
            attempts,
            locked_until: locks ? lockEnds : null,
            expires_at: locks && lockEnds > row.expires_at ? lockEnds : row.expires_at,
          })
          .where(sql`${loginThrottle.key} = ${row.key}`);
      }
      return { allowed: true as const, keys };
    });
    await this.prune(at);
    return result;
  }

  /**
   * A right password: the login's typos at this address are forgiven, and the attempt no longer
   * counts against the address or the login elsewhere.
   */
  async forgive(reservation: Reservation): Promise<void> {
    if (!reservation.allowed) return;
    const pair = reservation.keys.filter((k) => k.kind === 'loginAddress').map((k) => k.digest);
    const others = reservation.keys.filter((k) => k.kind !== 'loginAddress');
    if (pair.length > 0)
      await this.db.delete(loginThrottle).where(inArray(loginThrottle.key, pair));
    for (const { kind, digest } of others) {
      const max = this.limits[kind].max;
      await this.db
        .update(loginThrottle)
        .set({
          attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)`,
          locked_until: sql`case when ${loginThrottle.attempts} - 1 < ${max} then null else ${loginThrottle.locked_until} end`,
        })
        .where(sql`${loginThrottle.key} = ${digest}`);
    }
  }

  /** Deletes a batch of rows whose window and lock are over; rows being used are skipped. */
  private async prune(at: string): Promise<void> {
    await this.db.execute(sql`
      delete from ${loginThrottle} where ${loginThrottle.key} in (
        select ${loginThrottle.key} from ${loginThrottle}
        where ${loginThrottle.expires_at} < ${at}::timestamptz
        limit ${PRUNE_BATCH} for update skip locked)`);
  }
}

/** The row's window and lock are over at `at`. */
function over(at: string) {
  return sql`(coalesce(${loginThrottle.locked_until}, ${loginThrottle.window_ends_at}) <= ${at}::timestamptz)`;
}

/**
 * Digests rather than the values: a login field sometimes holds a mistyped password, and the
 * table then keeps nothing readable. The login is normalised as for signing in.
 */
const digestOf = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex');

function keysOf(login: string, address: string): Key[] {
  const name = normalizeLogin(login).toLowerCase();
  return [
    { kind: 'loginAddress', digest: digestOf('login+address', name, address) },
    { kind: 'address', digest: digestOf('address', address) },
    { kind: 'login', digest: digestOf('login', name) },
  ];
}
