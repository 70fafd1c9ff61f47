import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSetKits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { FAKE_STEPS } from './fake-provider.js';
import { insertOrder, waybill } from '../../test/kit-fixture.js';
import { inArray } from 'drizzle-orm';

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

describe('POST /api/probe-sets/{id}/tracking/refresh', () => {
  it("refreshes the order's due kits only: another order's kit is not asked", async () => {
    const patient = await registerPatient(t, doctor);
    const mine = await insertOrder(t.db, patient.id, [waybill(), waybill(), null]);
    const other = await insertOrder(t.db, patient.id, [waybill()]);
    const res = await t.request('POST', `/api/probe-sets/${mine.setId}/tracking/refresh`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', checked: 2, updated: 2, failed: 0 });
    const kits = await t.db
      .select()
      .from(probeSetKits)
      .where(inArray(probeSetKits.id, [...mine.kitIds, ...other.kitIds]));
    const byId = new Map(kits.map((kit) => [kit.id, kit]));
    for (const id of mine.kitIds.slice(0, 2)) {
      expect(byId.get(id)?.last_status).toBe(FAKE_STEPS[0]!.status);
      expect(byId.get(id)?.last_checked_at).not.toBeNull();
    }
    expect(byId.get(mine.kitIds[2]!)?.last_checked_at).toBeNull(); // no waybill
    expect(byId.get(other.kitIds[0]!)?.last_status).toBeNull();
    expect(byId.get(other.kitIds[0]!)?.last_checked_at).toBeNull();
  });

  it('answers all zero for an order that is not accepted', async () => {
    const patient = await registerPatient(t, doctor);
    const fresh = await insertOrder(t.db, patient.id, [waybill()], 0);
    const res = await t.request('POST', `/api/probe-sets/${fresh.setId}/tracking/refresh`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', checked: 0, updated: 0, failed: 0 });
  });

  it('answers 401 without a session, 403 to a doctor (also of the own unit), 404 for a missing order', async () => {
    const patient = await registerPatient(t, doctor);
    const order = await insertOrder(t.db, patient.id, [waybill()]);
    const path = `/api/probe-sets/${order.setId}/tracking/refresh`;
    expect((await t.request('POST', path)).statusCode).toBe(401);
    expect((await t.request('POST', path, { token: doctor.session.token })).statusCode).toBe(403);
    const stranger = await t.readyDoctor((await t.unit()).id);
    expect((await t.request('POST', path, { token: stranger.session.token })).statusCode).toBe(403);
    const missing = await t.request('POST', '/api/probe-sets/999999/tracking/refresh', {
      token: admin.session.token,
    });
    expect(missing.statusCode).toBe(404);
    const [kit] = await t.db
      .select()
      .from(probeSetKits)
      .where(eq(probeSetKits.id, order.kitIds[0]!));
    expect(kit?.last_checked_at).toBeNull();
  });
});
