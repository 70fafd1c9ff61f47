import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, probes, safetyAlerts, settings, users } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoPatients } from './patients.js';
import { addDemoProbes, DEMO_LABORATORY } from './probes.js';
import { addDemoCalendars, addDemoVisits } from './visits.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { loadProbe } from '../modules/probes/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

// A Wednesday morning in Warsaw: the demo's dates are counted from it.
const NOW = new Date('2026-11-18T08:05:00Z');

describe('demo samples', () => {
  let database: TestDatabase;
  let adminUserId: number;
  let counts: Awaited<ReturnType<typeof addDemoProbes>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.handle.db;
    // As npm run demo: units, doctors, an administrator, patients, visits, then samples.
    const unitIds: number[] = [];
    for (const unit of demoUnits) unitIds.push((await createUnit(db, unit)).id);
    for (const [index, doctor] of demoDoctors.entries())
      await createDoctor(db, null, { ...doctor, unit_id: unitIds[index % unitIds.length]! });
    await createAdmin(db, null, { login: demoAdmins[0]! });
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    adminUserId = admin!.id;
    await addDemoPatients(db);
    await addDemoCalendars(db, adminUserId, NOW);
    await addDemoVisits(db, adminUserId, NOW);
    counts = await addDemoProbes(db, adminUserId, NOW);
  });
  afterAll(() => database?.close());

  it('holds samples in every status, the laboratory copied onto them', async () => {
    expect(counts.collected).toBeGreaterThan(0);
    expect(counts.sent).toBeGreaterThan(0);
    expect(counts.received).toBeGreaterThan(0);
    const rows = await database.handle.db.select().from(probes);
    expect(rows.length).toBe(counts.collected + counts.sent + counts.received);
    expect(new Set(rows.map((row) => row.status))).toEqual(
      new Set(['collected', 'sent', 'received']),
    );
    expect(rows.every((row) => row.laboratory_city === DEMO_LABORATORY.city)).toBe(true);
    expect(rows.filter((row) => row.status === 'sent').every((row) => row.arrived_at)).toBe(true);
    const [lab] = await database.handle.db
      .select()
      .from(settings)
      .where(eq(settings.key, 'laboratory'));
    expect(lab?.value).toEqual(DEMO_LABORATORY);
  });

  it("flags a woman's ALT of 55 and opens one Hy's law alert", async () => {
    const db = database.handle.db;
    const received = await db.select().from(probes).where(eq(probes.status, 'received'));
    const loaded = await Promise.all(received.map((row) => loadProbe(db, row.id)));
    const woman = loaded.find((probe) => probe?.patient_sex === 'K');
    expect(woman?.biochemistry_results.alt).toBe(55);
    expect(woman?.results_out_of_norm).toContain('alt');
    const open = await db.select().from(safetyAlerts).where(isNull(safetyAlerts.acknowledged_at));
    expect(open.map((alert) => alert.rule)).toEqual(['hys_law']);
  });

  it('writes the samples and their results to the audit trail as the coordinator', async () => {
    const entries = await database.handle.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entity_name, 'probes'), eq(auditEntries.column_name, 'alt')));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.user_id === adminUserId)).toBe(true);
  });
});
