import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { demoActor } from './actor.js';
import { addDemoAnnouncements, DEMO_PHONES } from './announcements.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoPatients } from './patients.js';
import { listAnnouncements } from '../modules/announcements/index.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { readSetting, readSupportPhone } from '../modules/settings/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

const NOW = new Date('2026-11-18T08:05:00Z');

describe('demo announcements', () => {
  let database: TestDatabase;

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
    expect(await addDemoAnnouncements(db, admin!.id, NOW)).toBe(3);
  });
  afterAll(() => database?.close());

  it('sends announcements from an administrator and a doctor, read by demo patients', async () => {
    const db = database.handle.db;
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    const actor = demoActor({ id: admin!.id, login: admin!.login, role: 'admin' });
    const { data, total_count } = await listAnnouncements(db, actor);
    expect(total_count).toBe(3);
    // Newest first, dated before the demo's "now".
    expect(data.map((a) => a.readNum)).toEqual([0, 4, 9]);
    expect(data.map((a) => a.sender === null)).toEqual([true, false, true]);
    expect(data[1]!.sender).toMatchObject({ surname: demoDoctors[0]!.surname });
    for (const a of data) expect(new Date(a.created_at).getTime()).toBeLessThan(NOW.getTime());
  });

  it('sets both phone numbers', async () => {
    const db = database.handle.db;
    expect((await readSetting(db, 'phone')).value).toEqual(DEMO_PHONES);
    expect(await readSupportPhone(db)).toBe('+48 426 301 234');
  });
});
