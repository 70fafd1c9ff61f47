import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { auditEntries, probeSetKits, shipmentEvents } from '../../db/schema.js';
import { openTestDatabase } from '../../test/harness.js';
import type { TestDatabase } from '../../test/harness.js';
import { FAKE_STEPS, FakeTrackingProvider } from './fake-provider.js';
import { insertOrder, insertPatient, waybill } from '../../test/kit-fixture.js';
import { TrackingError } from '../../lib/tracking-provider.js';
import type {
  TrackingProvider,
  TrackingQuery,
  TrackingResult,
} from '../../lib/tracking-provider.js';
import { refreshShipments } from './refresh.js';

/** Counts every question per waybill; optionally slow, to overlap two refreshes. */
class CountingProvider implements TrackingProvider {
  readonly name = 'counting';
  readonly calls: string[] = [];
  constructor(
    private readonly inner: TrackingProvider = new FakeTrackingProvider(),
    private readonly delayMs = 0,
    private readonly onCall?: (query: TrackingQuery) => Promise<void>,
  ) {}
  async track(query: TrackingQuery, signal: AbortSignal): Promise<TrackingResult> {
    this.calls.push(query.trackingCode);
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    await this.onCall?.(query);
    return this.inner.track(query, signal);
  }
  asked(code: string): number {
    return this.calls.filter((call) => call === code).length;
  }
}

const failing = (make: () => Promise<TrackingResult>): TrackingProvider => ({
  name: 'failing',
  track: make,
});

let database: TestDatabase;
let db: Database;
let patientId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.handle.db;
  ({ patientId } = await insertPatient(db));
}, 60_000);
afterAll(async () => {
  await database?.close();
});

async function kit(id: number) {
  const [row] = await db.select().from(probeSetKits).where(eq(probeSetKits.id, id));
  return row!;
}

async function eventsOf(id: number) {
  return (
    db
      .select()
      .from(shipmentEvents)
      .where(eq(shipmentEvents.kit_id, id))
      // Two events of one instant (the fake dates each now) in the order they were stored.
      .orderBy(asc(shipmentEvents.occurred_at), asc(shipmentEvents.id))
  );
}

/** Leaves only these kits due: every other kit of earlier tests is marked delivered. */
async function onlyDue(kitIds: number[]) {
  await db.execute(
    sql`update probe_set_kits set delivered = true where not (id = any(${sql.raw(`array[${kitIds.join(',') || '0'}]`)}))`,
  );
}

describe('refreshShipments', () => {
  it('moves a kit one status per refresh with the fake until delivered, then asks no more', async () => {
    const code = waybill();
    const { kitIds } = await insertOrder(db, patientId, [code]);
    await onlyDue(kitIds);
    const provider = new CountingProvider();
    for (const [index, step] of FAKE_STEPS.entries()) {
      const result = await refreshShipments(db, provider);
      expect(result).toEqual({ status: 'success', checked: 1, updated: 1, failed: 0 });
      const row = await kit(kitIds[0]!);
      expect(row.last_status).toBe(step.status);
      expect(row.delivered).toBe(index === FAKE_STEPS.length - 1);
      expect(row.refreshing_until).toBeNull();
      expect(row.last_checked_at).not.toBeNull();
      const events = await eventsOf(kitIds[0]!);
      expect(events.map((e) => e.status)).toEqual(
        FAKE_STEPS.slice(0, index + 1).map((s) => s.status),
      );
      expect(row.last_status_date?.getTime()).toBe(events.at(-1)!.occurred_at.getTime());
    }
    expect(await refreshShipments(db, provider)).toEqual({
      status: 'success',
      checked: 0,
      updated: 0,
      failed: 0,
    });
    expect(provider.asked(code)).toBe(FAKE_STEPS.length);
    // Each status change is in the audit trail under the patient, made by the system…
    const audit = await db
      .select()
      .from(auditEntries)
      .where(
        sql`${auditEntries.entity_name} = 'probe_set_kits' and ${auditEntries.entity_id} = ${String(kitIds[0])} and ${auditEntries.column_name} = 'last_status'`,
      );
    expect(audit).toHaveLength(FAKE_STEPS.length);
    expect(audit.every((entry) => entry.patient_id === patientId && entry.user_id === null)).toBe(
      true,
    );
    // …by the tracking job, as the trail says (ADR 042).
    expect(audit.every((entry) => entry.source === 'tracking')).toBe(true);
  });

  it.each([
    ['throws', () => Promise.reject(new TrackingError('HTTP 503')), 'HTTP 503'],
    [
      'answers garbage',
      () => Promise.reject(new TrackingError('unreadable answer')),
      'unreadable answer',
    ],
    [
      'fails unexpectedly',
      () => Promise.reject(new Error('socket hang up for 89010112345')),
      'provider failed',
    ],
    ['hangs', () => new Promise<TrackingResult>(() => undefined), 'timed out'],
  ])(
    'keeps the last status when the provider %s, records the error, and the next good refresh clears it',
    async (_, make, reason) => {
      const { kitIds } = await insertOrder(db, patientId, [waybill()]);
      await onlyDue(kitIds);
      const good = new FakeTrackingProvider();
      await refreshShipments(db, good);
      const before = await kit(kitIds[0]!);
      expect(before.last_status).toBe(FAKE_STEPS[0]!.status);

      const result = await refreshShipments(db, failing(make), { timeoutMs: 100 });
      expect(result).toEqual({ status: 'success', checked: 1, updated: 0, failed: 1 });
      const failed = await kit(kitIds[0]!);
      expect(failed.last_error).toBe(reason);
      expect(failed.last_status).toBe(before.last_status);
      expect(failed.last_status_date).toEqual(before.last_status_date);
      expect(failed.refreshing_until).toBeNull();
      // Never a patient's data in the error (the unexpected error's text is not copied).
      expect(failed.last_error).not.toMatch(/\d{11}/);

      await refreshShipments(db, good);
      const healed = await kit(kitIds[0]!);
      expect(healed.last_error).toBeNull();
      expect(healed.last_status).toBe(FAKE_STEPS[1]!.status);
    },
  );

  it('never asks about a kit of an order not accepted, nor one without a waybill', async () => {
    const registered = await insertOrder(db, patientId, [waybill()], 0);
    const rejected = await insertOrder(db, patientId, [waybill()], 2);
    const accepted = await insertOrder(db, patientId, [null, waybill()]);
    await onlyDue([...registered.kitIds, ...rejected.kitIds, ...accepted.kitIds]);
    const provider = new CountingProvider();
    const result = await refreshShipments(db, provider);
    expect(result.checked).toBe(1);
    expect(provider.calls).toEqual([(await kit(accepted.kitIds[1]!)).tracking_code]);
    expect((await kit(registered.kitIds[0]!)).last_checked_at).toBeNull();
    expect((await kit(rejected.kitIds[0]!)).last_checked_at).toBeNull();
    expect((await kit(accepted.kitIds[0]!)).last_checked_at).toBeNull();
  });

  it('refreshes only the kit named by kitId', async () => {
    const { kitIds } = await insertOrder(db, patientId, [waybill(), waybill()]);
    await onlyDue(kitIds);
    const provider = new CountingProvider();
    const result = await refreshShipments(db, provider, { kitId: kitIds[1]! });
    expect(result.checked).toBe(1);
    expect(provider.calls).toEqual([(await kit(kitIds[1]!)).tracking_code]);
  });

  it('leaves a kit leased by another run alone and takes it over once the lease passed', async () => {
    const { kitIds } = await insertOrder(db, patientId, [waybill()]);
    await onlyDue(kitIds);
    const [id] = kitIds as [number];
    // A run that claimed the kit and then crashed: its lease is still running.
    await db
      .update(probeSetKits)
      .set({ refreshing_until: sql`now() + interval '1 hour'` })
      .where(eq(probeSetKits.id, id));
    const provider = new CountingProvider();
    expect((await refreshShipments(db, provider)).checked).toBe(0);
    expect(provider.calls).toEqual([]);
    // The lease passed: the next refresh takes the kit over.
    await db
      .update(probeSetKits)
      .set({ refreshing_until: sql`now() - interval '1 second'` })
      .where(eq(probeSetKits.id, id));
    expect((await refreshShipments(db, provider)).checked).toBe(1);
    expect((await kit(id)).refreshing_until).toBeNull();
    expect((await kit(id)).last_status).toBe(FAKE_STEPS[0]!.status);
  });

  it('drops a late answer when another run took the kit over meanwhile', async () => {
    const { kitIds } = await insertOrder(db, patientId, [waybill()]);
    await onlyDue(kitIds);
    const [id] = kitIds as [number];
    // While this run waits for the provider, its lease passes and another run takes the kit.
    const provider = new CountingProvider(new FakeTrackingProvider(), 0, async () => {
      await db
        .update(probeSetKits)
        .set({ refreshing_until: sql`now() + interval '1 hour'` })
        .where(eq(probeSetKits.id, id));
    });
    expect(await refreshShipments(db, provider)).toEqual({
      status: 'success',
      checked: 0,
      updated: 0,
      failed: 0,
    });
    expect(provider.calls).toHaveLength(1);
    expect(await eventsOf(id)).toEqual([]);
    expect((await kit(id)).last_status).toBeNull();
  });

  it('drops the answer about a waybill replaced meanwhile and asks about the new one', async () => {
    const old = waybill();
    const replacement = waybill();
    const { kitIds } = await insertOrder(db, patientId, [old]);
    await onlyDue(kitIds);
    const [id] = kitIds as [number];
    // The order API saves a new waybill (and lets go of the lease) while the post is asked.
    const provider = new CountingProvider(new FakeTrackingProvider(), 0, async (query) => {
      if (query.trackingCode !== old) return;
      await db
        .update(probeSetKits)
        .set({ tracking_code: replacement, refreshing_until: null })
        .where(eq(probeSetKits.id, id));
    });
    const result = await refreshShipments(db, provider);
    expect(result.checked).toBe(1);
    expect(provider.calls).toEqual([old, replacement]);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it('ends even when the waybill changes under every answer (asked twice at most)', async () => {
    const { kitIds } = await insertOrder(db, patientId, [waybill()]);
    await onlyDue(kitIds);
    const [id] = kitIds as [number];
    const provider = new CountingProvider(new FakeTrackingProvider(), 0, async () => {
      await db
        .update(probeSetKits)
        .set({ tracking_code: waybill(), refreshing_until: null })
        .where(eq(probeSetKits.id, id));
    });
    expect((await refreshShipments(db, provider)).checked).toBe(0);
    expect(provider.calls).toHaveLength(2);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'asks about each kit once when two refreshes run at the same moment (PostgreSQL)',
    async () => {
      const codes = Array.from({ length: 30 }, () => waybill());
      const { kitIds } = await insertOrder(db, patientId, codes.slice(0, 15));
      const second = await insertOrder(db, patientId, codes.slice(15));
      await onlyDue([...kitIds, ...second.kitIds]);
      const provider = new CountingProvider(new FakeTrackingProvider(), 20);
      const [a, b] = await Promise.all([
        refreshShipments(db, provider, { batch: 4 }),
        refreshShipments(db, provider, { batch: 4 }),
      ]);
      expect(a.checked + b.checked).toBe(30);
      expect(a.checked).toBeGreaterThan(0);
      expect(b.checked).toBeGreaterThan(0);
      expect(provider.calls).toHaveLength(30);
      expect(new Set(provider.calls).size).toBe(30);
      const rows = await db
        .select()
        .from(shipmentEvents)
        .where(inArray(shipmentEvents.kit_id, [...kitIds, ...second.kitIds]));
      expect(rows).toHaveLength(30);
    },
  );

  it('refreshes 100 kits (timing in the report)', { timeout: 120_000 }, async () => {
    const codes = Array.from({ length: 100 }, () => waybill());
    const kitIds: number[] = [];
    for (let i = 0; i < 100; i += 20) {
      kitIds.push(...(await insertOrder(db, patientId, codes.slice(i, i + 20))).kitIds);
    }
    await onlyDue(kitIds);
    const started = performance.now();
    const result = await refreshShipments(db, new FakeTrackingProvider());
    const ms = Math.round(performance.now() - started);
    expect(result).toEqual({ status: 'success', checked: 100, updated: 100, failed: 0 });
    console.log(`refresh of 100 kits with the fake provider on ${database.handle.kind}: ${ms} ms`);
  });
});
