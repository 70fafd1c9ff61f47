import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { demoPatientLogin } from './patient-login.js';
import { addDemoPatients } from './patients.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createUnit } from '../modules/units/index.js';
import { verifyPassword } from '../lib/passwords.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

describe('the demo patient login', () => {
  let database: TestDatabase;
  let adminUserId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.handle.db;
    const unitIds: number[] = [];
    for (const unit of demoUnits) unitIds.push((await createUnit(db, unit)).id);
    for (const [index, doctor] of demoDoctors.entries())
      await createDoctor(db, null, { ...doctor, unit_id: unitIds[index % unitIds.length]! });
    await createAdmin(db, null, { login: demoAdmins[0]! });
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    adminUserId = admin!.id;
    await addDemoPatients(db);
  });
  afterAll(() => database?.close());

  it('prints a working patient login whose password must be replaced first', async () => {
    const db = database.handle.db;
    const printed = await demoPatientLogin(db, adminUserId);
    expect(printed?.login).toMatch(/^pac\d{6}$/);
    const [account] = await db.select().from(users).where(eq(users.login, printed!.login));
    expect(account?.role).toBe('patient');
    expect(await verifyPassword(account!.password_hash, printed!.password)).toBe(true);
    expect(account?.changed_password_at).toBeNull();
  });
});
