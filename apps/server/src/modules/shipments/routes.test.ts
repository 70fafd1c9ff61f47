import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSetKits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { FAKE_STEPS } from './fake-provider.js';
import { insertOrder, waybill } from './kit-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/probe-sets/tracking/refresh', () => {
  it('refreshes every due kit now and answers the counts', async () => {
    const patient = await registerPatient(t, doctor);
    const { kitIds } = await insertOrder(t.db, patient.id, [waybill(), null]);
    const res = await t.request('POST', '/api/probe-sets/tracking/refresh', {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', checked: 1, updated: 1, failed: 0 });
    const [kit] = await t.db.select().from(probeSetKits).where(eq(probeSetKits.id, kitIds[0]!));
    expect(kit?.last_status).toBe(FAKE_STEPS[0]!.status);
  });

  it('is for administrators only', async () => {
    const res = await t.request('POST', '/api/probe-sets/tracking/refresh', {
      token: doctor.session.token,
    });
    expect(res.statusCode).toBe(403);
    const anonymous = await t.request('POST', '/api/probe-sets/tracking/refresh');
    expect(anonymous.statusCode).toBe(401);
  });
});
