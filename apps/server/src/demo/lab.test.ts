import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMessages, probes, unmatchedResults, users } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoLab, DEMO_SYNEVO, DEMO_UNMATCHED_CODE } from './lab.js';
import { addDemoPatients } from './patients.js';
import { addDemoProbes } from './probes.js';
import { addDemoCalendars, addDemoVisits } from './visits.js';
import { SecretBox } from '../lib/secrets.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { readSynevoCredentials } from '../modules/settings/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

const NOW = new Date('2026-11-18T08:05:00Z');

describe('demo laboratory', () => {
  let database: TestDatabase;
  const key = randomBytes(32);
  let outcome: Awaited<ReturnType<typeof addDemoLab>>;

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
    await addDemoCalendars(db, admin!.id, NOW);
    await addDemoVisits(db, admin!.id, NOW);
    await addDemoProbes(db, admin!.id, NOW);
    outcome = await addDemoLab(db, admin!.id, key, () => {});
  });
  afterAll(() => database?.close());

  it('seals the laboratory password and switches the import on', async () => {
    const credentials = await readSynevoCredentials(database.handle.db, new SecretBox(key));
    expect(credentials).toEqual({
      login: DEMO_SYNEVO.login,
      password: DEMO_SYNEVO.password,
      unit_code: DEMO_SYNEVO.unit_code,
      enabled: true,
    });
  });

  it('stores laboratory results on sent samples and leaves one result unmatched', async () => {
    const db = database.handle.db;
    expect(outcome.unmatched).toBe(1);
    const fromLab = await db.select().from(probes).where(eq(probes.results_source, 'hl7'));
    expect(fromLab.length).toBe(outcome.accepted - 1);
    expect(fromLab.length).toBeGreaterThan(0);
    expect(fromLab.every((row) => row.status === 'received')).toBe(true);
    const open = await db
      .select()
      .from(unmatchedResults)
      .where(eq(unmatchedResults.probe_code, DEMO_UNMATCHED_CODE));
    expect(open.map((row) => [row.reason, row.status])).toEqual([['no_probe', 'open']]);
    const messages = await db.select().from(labMessages);
    expect(messages.every((row) => row.status === 'accepted')).toBe(true);
  });
});
