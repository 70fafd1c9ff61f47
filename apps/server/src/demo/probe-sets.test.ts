import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSetKits, probeSets, probes, shipmentEvents, users } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoPatients } from './patients.js';
import { addDemoProbeSets } from './probe-sets.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { loadProbe } from '../modules/probes/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

const NOW = new Date('2026-11-18T08:05:00Z');

describe('demo kit orders', () => {
  let database: TestDatabase;
  let counts: Awaited<ReturnType<typeof addDemoProbeSets>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.handle.db;
    const unitIds: number[] = [];
    for (const unit of demoUnits) unitIds.push((await createUnit(db, unit)).id);
    for (const [index, doctor] of demoDoctors.entries())
      await createDoctor(db, null, { ...doctor, unit_id: unitIds[index % unitIds.length]! });
    await createAdmin(db, null, { login: demoAdmins[0]! });
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    await addDemoPatients(db);
    counts = await addDemoProbeSets(db, admin!.id, NOW);
  });
  afterAll(() => database?.close());

  it('holds orders in every status, a rejected one with its reason', async () => {
    expect(counts.registered).toBeGreaterThan(0);
    expect(counts.accepted).toBeGreaterThan(0);
    expect(counts.rejected).toBeGreaterThan(0);
    const rows = await database.handle.db.select().from(probeSets);
    expect(rows).toHaveLength(counts.registered + counts.accepted + counts.rejected);
    expect(rows.filter((row) => row.status === 2).every((row) => row.reason)).toBe(true);
    expect(rows.every((row) => row.created_at <= NOW)).toBe(true);
  });

  it('has waybills with fake histories: one kit delivered, others in transit', async () => {
    const db = database.handle.db;
    const kits = await db.select().from(probeSetKits).where(isNotNull(probeSetKits.tracking_code));
    expect(kits.some((kit) => kit.delivered && kit.last_status)).toBe(true);
    expect(kits.some((kit) => !kit.delivered && kit.last_status)).toBe(true);
    for (const kit of kits) {
      const events = await db
        .select()
        .from(shipmentEvents)
        .where(eq(shipmentEvents.kit_id, kit.id));
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => event.occurred_at <= NOW)).toBe(true);
    }
  });

  it('links a home sample to a delivered kit, showing its shipment', async () => {
    const db = database.handle.db;
    const [linked] = await db.select().from(probes).where(isNotNull(probes.probe_set_kit_id));
    expect(linked?.collect_place).toBe('home');
    const probe = await loadProbe(db, linked!.id);
    expect(probe?.set?.shipment?.last_status).toBe('Doręczenie przesyłki');
  });
});
