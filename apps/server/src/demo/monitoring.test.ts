import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queries, recordLocks, signatures, users, verifications } from '../db/schema.js';
import { demoAdmins, demoDoctors, demoUnits } from './data.js';
import { addDemoMonitoring } from './monitoring.js';
import { addDemoRecordLock } from './locks.js';
import { addDemoPatients } from './patients.js';
import { addDemoProbes } from './probes.js';
import { addDemoCalendars, addDemoVisits } from './visits.js';
import { createAdmin } from '../modules/admins/index.js';
import { createDoctor } from '../modules/doctors/index.js';
import { createUnit } from '../modules/units/index.js';
import { openTestDatabase } from '../test/harness.js';
import type { TestDatabase } from '../test/harness.js';

describe('demo signatures, monitor and queries (issue 23)', () => {
  let database: TestDatabase;
  let result: Awaited<ReturnType<typeof addDemoMonitoring>>;

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
    await addDemoProbes(db, admin!.id);
    result = await addDemoMonitoring(db, unitIds[0]!, 'password');
  }, 300_000);
  afterAll(() => database?.close());

  it('locks one signed visit, by the coordinator, with a valid signature (ADR 048)', async () => {
    const db = database.handle.db;
    const [admin] = await db.select().from(users).where(eq(users.login, demoAdmins[0]!));
    const locked = await addDemoRecordLock(db, admin!.id);
    expect(locked).toMatchObject({ record_type: 'visit' });
    const rows = await db.select().from(recordLocks);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ record_type: 'visit', record_id: locked!.record_id });
    // The one locked visit holds a valid signature.
    const valid = await db
      .select()
      .from(signatures)
      .where(eq(signatures.record_id, locked!.record_id));
    expect(valid.some((row) => row.record_type === 'visit' && row.status === 'valid')).toBe(true);
  });

  it('signs visits, invalidates one changed after signing, and leaves some unsigned', async () => {
    expect(result.signed).toBeGreaterThanOrEqual(2);
    expect(result.changedAfterSigning).toBe(1);
    expect(result.unsigned).toBeGreaterThanOrEqual(1);
    const rows = await database.handle.db.select().from(signatures);
    expect(rows.filter((row) => row.status === 'invalidated')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'valid').length).toBeGreaterThanOrEqual(2);
  });

  it('has a monitor that signs in with the demo password, open and answered queries, a mark and a cleared one', async () => {
    const [monitor] = await database.handle.db
      .select()
      .from(users)
      .where(eq(users.login, result.login));
    expect(monitor).toMatchObject({ role: 'monitor' });
    expect(monitor!.changed_password_at).not.toBeNull();
    const statuses = (await database.handle.db.select().from(queries)).map((q) => q.status);
    expect(statuses.sort()).toEqual(['answered', 'open']);
    // One current mark, and one a later correction cleared ("zmieniono po weryfikacji").
    const marks = await database.handle.db.select().from(verifications);
    expect(marks).toHaveLength(2);
    expect(marks.filter((mark) => mark.cleared_at === null)).toHaveLength(1);
  });
});
