import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TrackingRefreshResult } from '@portal/shared';
import { inTransaction, markAuditSource } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { probeSetKits, shipmentEvents } from '../../db/schema.js';
import { TrackingError } from '../../lib/tracking-provider.js';
import type {
  TrackingEvent,
  TrackingProvider,
  TrackingResult,
} from '../../lib/tracking-provider.js';

/**
 * The numbers of a refresh (docs/product-rules.md "Shipments", ADR 031). A batch of `BATCH` kits is
 * claimed at a time and asked about `CONCURRENCY` at once, each call cut off after `TIMEOUT_MS`;
 * the lease must outlast a whole batch (ceil(20 / 5) × 10 s = 40 s) with room to store the answers.
 */
export const REFRESH_DEFAULTS = {
  leaseSeconds: 120,
  timeoutMs: 10_000,
  concurrency: 5,
  batch: 20,
};

export interface RefreshOptions {
  /** Only this kit (a new waybill's job); still only when it is due (accepted, not delivered). */
  kitId?: number;
  /** Only the kits of this order ("Odśwież teraz" on the order); still only the due ones. */
  probeSetId?: number;
  leaseSeconds?: number;
  timeoutMs?: number;
  concurrency?: number;
  batch?: number;
  log?: { warn(details: object, message: string): void };
}

interface ClaimedKit {
  id: number;
  trackingCode: string;
  /** The lease this run set, as the database wrote it: storing needs it unchanged. */
  lease: string;
  lastStatus: string | null;
  lastStatusDate: string | null;
}

type Outcome = 'unchanged' | 'updated' | 'failed' | 'lost';

/**
 * Claims the kits due for a refresh in ONE statement: waybill set, not delivered, order accepted,
 * no live lease, not yet checked by this run. `for update skip locked` makes two servers (or the
 * schedule and "refresh now") take disjoint kits; the lease keeps them apart until it passes, so a
 * crashed refresh lets go of its kits by itself.
 */
async function claim(
  db: Database,
  startedAt: string,
  options: Required<Pick<RefreshOptions, 'leaseSeconds' | 'batch'>> & {
    kitId?: number;
    probeSetId?: number;
    skip: readonly number[];
  },
): Promise<ClaimedKit[]> {
  const only = options.kitId === undefined ? sql`` : sql`and k.id = ${options.kitId}`;
  const ofOrder =
    options.probeSetId === undefined ? sql`` : sql`and k.probe_set_id = ${options.probeSetId}`;
  const skip =
    options.skip.length === 0
      ? sql``
      : sql`and k.id not in (${sql.join(
          options.skip.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const result = await db.execute(sql`
    update probe_set_kits set refreshing_until = now() + make_interval(secs => ${options.leaseSeconds})
    where id in (
      select k.id from probe_set_kits k
      join probe_sets s on s.id = k.probe_set_id
      where k.tracking_code is not null and not k.delivered and s.status = 1
        and (k.refreshing_until is null or k.refreshing_until < now())
        and (k.last_checked_at is null or k.last_checked_at < ${startedAt}::timestamptz)
        ${only} ${ofOrder} ${skip}
      order by k.last_checked_at nulls first, k.id
      limit ${options.batch}
      for update of k skip locked
    )
    returning id, tracking_code, refreshing_until::text as lease, last_status,
      last_status_date::text as last_status_date`);
  const rows = (
    result as {
      rows: {
        id: number;
        tracking_code: string;
        lease: string;
        last_status: string | null;
        last_status_date: string | null;
      }[];
    }
  ).rows;
  return rows.map((row) => ({
    id: Number(row.id),
    trackingCode: row.tracking_code,
    lease: row.lease,
    lastStatus: row.last_status,
    lastStatusDate: row.last_status_date,
  }));
}

/** The provider's answer, or a TrackingError when it fails, is unreadable or takes too long. */
async function ask(
  provider: TrackingProvider,
  trackingCode: string,
  known: TrackingEvent[],
  timeoutMs: number,
): Promise<TrackingResult> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // Also cut off a provider that ignores the signal.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TrackingError('timed out'));
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      provider.track({ trackingCode, known }, controller.signal),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A short, patient-free reason for the kit's last_error. */
function reasonOf(error: unknown): string {
  if (error instanceof TrackingError) return error.message.slice(0, 200);
  return 'provider failed';
}

const eventKey = (event: { status: string; occurredAt: Date }) =>
  `${event.occurredAt.getTime()}|${event.status}`;

/** Stores one kit's answer, if this run still holds its lease and the waybill did not change. */
async function store(
  db: Database,
  kit: ClaimedKit,
  known: TrackingEvent[],
  answer: TrackingResult | { error: string },
): Promise<Outcome> {
  // The system acts: no user id, the audit trail files status changes under the patient.
  return inTransaction(db, null, async (tx) => {
    await markAuditSource(tx, 'tracking');
    const mine = and(
      eq(probeSetKits.id, kit.id),
      eq(probeSetKits.tracking_code, kit.trackingCode),
      sql`${probeSetKits.refreshing_until} = ${kit.lease}::timestamptz`,
    );
    const [held] = await tx
      .select({ id: probeSetKits.id })
      .from(probeSetKits)
      .where(mine)
      .for('update');
    if (!held) return 'lost';

    if ('error' in answer) {
      await tx
        .update(probeSetKits)
        .set({ last_error: answer.error, last_checked_at: sql`now()`, refreshing_until: null })
        .where(eq(probeSetKits.id, kit.id));
      return 'failed';
    }

    const seen = new Set(known.map(eventKey));
    const fresh = new Map<string, TrackingEvent>();
    for (const event of answer.events) {
      if (!seen.has(eventKey(event))) fresh.set(eventKey(event), event);
    }
    if (fresh.size > 0) {
      await tx
        .insert(shipmentEvents)
        .values(
          [...fresh.values()].map((event) => ({
            kit_id: kit.id,
            status: event.status,
            occurred_at: event.occurredAt,
            place: event.place,
          })),
        )
        .onConflictDoNothing();
    }
    // The newest stored event is the kit's status (an empty answer keeps what was known).
    const [newest] = await tx
      .select({ status: shipmentEvents.status, occurred_at: shipmentEvents.occurred_at })
      .from(shipmentEvents)
      .where(eq(shipmentEvents.kit_id, kit.id))
      .orderBy(desc(shipmentEvents.occurred_at), desc(shipmentEvents.id))
      .limit(1);
    const [saved] = await tx
      .update(probeSetKits)
      .set({
        last_status: newest?.status ?? null,
        last_status_date: newest?.occurred_at ?? null,
        delivered: answer.delivered,
        last_error: null,
        last_checked_at: sql`now()`,
        refreshing_until: null,
      })
      .where(eq(probeSetKits.id, kit.id))
      .returning({
        changed: sql<boolean>`(${probeSetKits.last_status} is distinct from ${kit.lastStatus}
          or ${probeSetKits.last_status_date} is distinct from ${kit.lastStatusDate}::timestamptz
          or ${probeSetKits.delivered})`,
      });
    return saved?.changed ? 'updated' : 'unchanged';
  });
}

/** Runs `work` over `items`, at most `limit` at once. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Refreshes the shipments of every kit that is due (or of `options.kitId`): claims a batch, asks
 * the provider OUTSIDE any transaction (PGlite is one connection, and a slow service must not
 * hold locks), then stores each answer in a short transaction of its own. A failure records a
 * short `last_error` and keeps the last known status. Safe to run on several servers at once.
 */
export async function refreshShipments(
  db: Database,
  provider: TrackingProvider,
  options: RefreshOptions = {},
): Promise<TrackingRefreshResult> {
  const leaseSeconds = options.leaseSeconds ?? REFRESH_DEFAULTS.leaseSeconds;
  const timeoutMs = options.timeoutMs ?? REFRESH_DEFAULTS.timeoutMs;
  const concurrency = options.concurrency ?? REFRESH_DEFAULTS.concurrency;
  const batch = options.batch ?? REFRESH_DEFAULTS.batch;
  // The database's clock, as the leases use it: a kit checked after this is not asked again.
  const started = await db.execute(sql`select now()::text as now`);
  const startedAt = (started as { rows: { now: string }[] }).rows[0]!.now;
  const result: TrackingRefreshResult = { status: 'success', checked: 0, updated: 0, failed: 0 };
  // A kit whose answer was dropped (its waybill changed meanwhile) is claimed again for the new
  // waybill, but at most twice per run: a kit changing under every answer cannot keep it going.
  const claims = new Map<number, number>();

  for (;;) {
    const skip = [...claims].filter(([, n]) => n >= 2).map(([id]) => id);
    const kits = await claim(db, startedAt, {
      leaseSeconds,
      batch,
      kitId: options.kitId,
      probeSetId: options.probeSetId,
      skip,
    });
    if (kits.length === 0) break;
    for (const kit of kits) claims.set(kit.id, (claims.get(kit.id) ?? 0) + 1);
    const events = await db
      .select()
      .from(shipmentEvents)
      .where(
        inArray(
          shipmentEvents.kit_id,
          kits.map((kit) => kit.id),
        ),
      )
      .orderBy(asc(shipmentEvents.occurred_at), asc(shipmentEvents.id));
    await eachLimited(kits, concurrency, async (kit) => {
      const known = events
        .filter((event) => event.kit_id === kit.id)
        .map((event) => ({
          status: event.status,
          occurredAt: event.occurred_at,
          place: event.place,
        }));
      let answer: TrackingResult | { error: string };
      try {
        answer = await ask(provider, kit.trackingCode, known, timeoutMs);
      } catch (error) {
        if (!(error instanceof TrackingError)) {
          options.log?.warn({ err: error, kit_id: kit.id }, 'tracking provider failed');
        }
        answer = { error: reasonOf(error) };
      }
      const outcome = await store(db, kit, known, answer);
      if (outcome === 'lost') return;
      result.checked += 1;
      if (outcome === 'updated') result.updated += 1;
      if (outcome === 'failed') result.failed += 1;
    });
    if (options.kitId !== undefined) break;
  }
  return result;
}
