import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, users } from '../db/schema.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoPatients } from './patients.js';
import { addDemoReasons } from './reasons.js';
import { addDemoCalendars, addDemoVisits } from './visits.js';

describe('demo changes with reasons', () => {
  let database: TestDatabase;
  let changed: number;

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
    await addDemoCalendars(db, admin!.id);
    await addDemoVisits(db, admin!.id);
    changed = await addDemoReasons(db, admin!.id);
  });
  afterAll(() => database?.close());

  it('changes a qualified patient and a recorded visit with reasons in the audit trail', async () => {
    expect(changed).toBe(2);
    const reasoned = await database.handle.db
      .select({ entity: auditEntries.entity_name, code: auditEntries.reason_code })
      .from(auditEntries)
      .where(isNotNull(auditEntries.reason_code));
    expect(reasoned).toEqual(
      expect.arrayContaining([
        { entity: 'patients', code: 'source_correction' },
        { entity: 'visits', code: 'entry_error' },
      ]),
    );
  });
});
