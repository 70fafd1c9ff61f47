import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeSet, ProbeSetBodyInput, ProbeSetPage } from '@portal/shared';
import { and, count, eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import {
  auditEntries,
  carriers,
  medicines,
  probeSetKits,
  probeSets,
  probes,
  shipmentEvents,
} from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import type { Actor } from '../../plugins/policy.js';
import { REFRESH_KIT_JOB, saveTracking } from './service.js';
import { insertProbe } from '../../test/probe-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;
let patientId: number;
let otherPatientId: number;
let strangersPatientId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  stranger = await t.readyDoctor((await t.unit()).id);
  patientId = (await registerPatient(t, doctor, { firstname: 'Zenon', surname: 'Kitowski' })).id;
  otherPatientId = (await registerPatient(t, doctor, { firstname: 'Ewa', surname: 'Adamska' })).id;
  strangersPatientId = (await registerPatient(t, stranger)).id;
});
afterAll(() => t?.close());

const as = (who: { session: { token: string } }) => ({ token: who.session.token });

function orderBody(patient: number, extra: Partial<ProbeSetBodyInput> = {}): ProbeSetBodyInput {
  return {
    patient_id: patient,
    amount: 2,
    labels_amount: 3,
    street: 'Długa',
    building: '5',
    postcode: '00-001',
    city: 'Łódź',
    ...extra,
  };
}

async function order(patient = patientId, extra: Partial<ProbeSetBodyInput> = {}, who = doctor) {
  const res = await t.request('POST', '/api/probe-sets', {
    ...as(who),
    body: orderBody(patient, extra),
  });
  if (res.statusCode !== 201) throw new Error(`order answered ${res.statusCode}: ${res.body}`);
  return res.json<{ probe_set: ProbeSet }>().probe_set;
}

/** The stored version of an order (or 1 for none), as a screen that read it just now holds. */
async function orderVersion(id: number): Promise<number> {
  const [row] = await t.db
    .select({ version: probeSets.version })
    .from(probeSets)
    .where(eq(probeSets.id, id));
  return row?.version ?? 1;
}

async function kitVersion(id: number): Promise<number> {
  const [row] = await t.db
    .select({ version: probeSetKits.version })
    .from(probeSetKits)
    .where(eq(probeSetKits.id, id));
  return row?.version ?? 1;
}

/** A decision; without a `version` in the body it names the stored one (ADR 018). */
const decide = async (
  id: number,
  body: Record<string, unknown>,
  who: { session: { token: string } } = admin,
) =>
  t.request('PUT', `/api/probe-sets/${id}`, {
    ...as(who),
    body: 'version' in body ? body : { ...body, version: await orderVersion(id) },
  });

const track = async (
  kitId: number,
  body: Record<string, unknown>,
  who: { session: { token: string } } = admin,
) =>
  t.request('PUT', `/api/probe-sets/tracking/${kitId}`, {
    ...as(who),
    body: 'version' in body ? body : { ...body, version: await kitVersion(kitId) },
  });

async function accepted(patient = patientId, who = doctor) {
  const set = await order(patient, {}, who);
  const res = await decide(set.id, { status: 1 });
  expect(res.statusCode).toBe(200);
  return res.json<{ probe_set: ProbeSet }>().probe_set;
}

async function stored(id: number) {
  const [row] = await t.db.select().from(probeSets).where(eq(probeSets.id, id));
  return row!;
}

async function storedKit(id: number) {
  const [row] = await t.db.select().from(probeSetKits).where(eq(probeSetKits.id, id));
  return row!;
}

async function auditCount(entity: string, entityId: number) {
  const [row] = await t.db
    .select({ n: count() })
    .from(auditEntries)
    .where(and(eq(auditEntries.entity_name, entity), eq(auditEntries.entity_id, String(entityId))));
  return row!.n;
}

describe('ordering kits', () => {
  it('stores the order with one kit per set, registered, and answers 201', async () => {
    const res = await t.request('POST', '/api/probe-sets', {
      ...as(doctor),
      body: orderBody(patientId),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ status: string; probe_set: ProbeSet }>();
    expect(body.status).toBe('success');
    expect(body.probe_set).toMatchObject({
      patient_id: patientId,
      patient: { firstname: 'Zenon', surname: 'Kitowski' },
      amount: 2,
      labels_amount: 3,
      city: 'Łódź',
      status: 0,
      reason: null,
      decided_at: null,
      decided_by: null,
      shipment: null,
      version: 1,
    });
    expect(body.probe_set.sets.map((kit) => kit.kit_number)).toEqual([1, 2]);
    expect(body.probe_set.sets[0]).toMatchObject({ shipment: null, delivered: false, events: [] });
  });

  it("takes the patient card's PUT /probe-sets/patient-sets alike", async () => {
    const res = await t.request('PUT', '/api/probe-sets/patient-sets', {
      ...as(admin),
      body: orderBody(otherPatientId, { amount: 1 }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ probe_set: ProbeSet }>().probe_set.sets).toHaveLength(1);
  });

  it("refuses another unit's patient (404), a missing amount and 21 kits (422)", async () => {
    const other = await t.request('POST', '/api/probe-sets', {
      ...as(doctor),
      body: orderBody(strangersPatientId),
    });
    expect(other.statusCode).toBe(404);
    const none = await t.request('POST', '/api/probe-sets', {
      ...as(doctor),
      body: { ...orderBody(patientId), amount: undefined },
    });
    expect(none.statusCode).toBe(422);
    const many = await t.request('POST', '/api/probe-sets', {
      ...as(doctor),
      body: orderBody(patientId, { amount: 21, labels_amount: 11 }),
    });
    expect(many.statusCode).toBe(422);
    expect(Object.keys(many.json<{ errors: object }>().errors).sort()).toEqual([
      'amount',
      'labels_amount',
    ]);
  });

  it("lists a patient's orders newest first, each with its kits", async () => {
    const first = await order(otherPatientId);
    const second = await order(otherPatientId, { amount: 3 });
    const res = await t.request(
      'GET',
      `/api/probe-sets/patient-sets/${otherPatientId}`,
      as(doctor),
    );
    expect(res.statusCode).toBe(200);
    const ids = res.json<{ data: ProbeSet[] }>().data.map((set) => set.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.json<{ data: ProbeSet[] }>().data[0]!.sets).toHaveLength(3);
    const stranger404 = await t.request(
      'GET',
      `/api/probe-sets/patient-sets/${otherPatientId}`,
      as(stranger),
    );
    expect(stranger404.statusCode).toBe(404);
  });
});

describe('one order', () => {
  it('answers the order to its unit and the administrator, 404 to another unit', async () => {
    const set = await order();
    for (const who of [doctor, admin]) {
      const res = await t.request('GET', `/api/probe-sets/${set.id}`, as(who));
      expect(res.statusCode).toBe(200);
      expect(res.json<ProbeSet>().id).toBe(set.id);
    }
    expect((await t.request('GET', `/api/probe-sets/${set.id}`, as(stranger))).statusCode).toBe(
      404,
    );
    expect((await t.request('GET', '/api/probe-sets/2147483647', as(admin))).statusCode).toBe(404);
    expect((await t.request('GET', '/api/probe-sets/2147483648', as(admin))).statusCode).toBe(404);
  });
});

describe('accepting and rejecting', () => {
  it('accepts a registered order, records who and when, audits it', async () => {
    const set = await order();
    const res = await decide(set.id, { status: 1, version: set.version });
    expect(res.statusCode).toBe(200);
    const saved = res.json<{ status: string; probe_set: ProbeSet }>();
    expect(saved.status).toBe('success');
    expect(saved.probe_set).toMatchObject({ status: 1, reason: null, version: 2 });
    expect(saved.probe_set.decided_at).not.toBeNull();
    // The administrator's login names who decided (a doctor would be named).
    expect(saved.probe_set.decided_by).toBe(admin.session.user.login);
    const row = await stored(set.id);
    expect(row.decided_by).toBe(admin.session.user.id);
    const [entry] = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probe_sets'),
          eq(auditEntries.entity_id, String(set.id)),
          eq(auditEntries.column_name, 'status'),
          eq(auditEntries.operation, 'update'),
        ),
      );
    expect(entry).toMatchObject({
      old_value: '0',
      new_value: '1',
      user_id: admin.session.user.id,
      patient_id: patientId,
    });
  });

  it('rejects with a reason; without one 422 and nothing changes', async () => {
    const set = await order();
    const before = await auditCount('probe_sets', set.id);
    for (const body of [{ status: 2 }, { status: 2, reason: '' }, { status: 2, reason: '   ' }]) {
      const res = await decide(set.id, body);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.reason).toBeDefined();
    }
    expect((await stored(set.id)).status).toBe(0);
    expect(await auditCount('probe_sets', set.id)).toBe(before);
    const res = await decide(set.id, { status: 2, reason: 'Pacjent zrezygnował' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ probe_set: ProbeSet }>().probe_set).toMatchObject({
      status: 2,
      reason: 'Pacjent zrezygnował',
    });
  });

  it('decides only once: accepting a rejected order and rejecting an accepted one are 409 already_decided', async () => {
    const rejected = await order();
    expect((await decide(rejected.id, { status: 2, reason: 'Błędny adres' })).statusCode).toBe(200);
    const again = await decide(rejected.id, { status: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: 'already_decided' });
    expect((await stored(rejected.id)).status).toBe(2);
    const acceptedSet = await accepted();
    const reject = await decide(acceptedSet.id, { status: 2, reason: 'Za późno' });
    expect(reject.statusCode).toBe(409);
    expect(reject.json()).toMatchObject({ status: 'already_decided' });
  });

  it('answers 409 conflict for a stale version, 422 for an unknown status, 403 to a doctor', async () => {
    const set = await order();
    const stale = await decide(set.id, { status: 1, version: set.version + 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ status: 'conflict' });
    expect((await decide(set.id, { status: 3 })).statusCode).toBe(422);
    expect((await decide(set.id, { status: 0 })).statusCode).toBe(422);
    expect((await decide(set.id, { status: 1 }, doctor)).statusCode).toBe(403);
    expect((await stored(set.id)).status).toBe(0);
    // The contract's body has no version (ADR 018): without one the decision is claimed and wins.
    const unversioned = await t.request('PUT', `/api/probe-sets/${set.id}`, {
      ...as(admin),
      body: { status: 1 },
    });
    expect(unversioned.statusCode).toBe(200);
    expect((await stored(set.id)).status).toBe(1);
  });
});

describe('waybills', () => {
  it('refuses a waybill on a registered or rejected order (409 not_accepted)', async () => {
    const set = await order();
    const res = await track(set.sets[0]!.id, { tracking_code: '00659007734000000001' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'not_accepted' });
    await decide(set.id, { status: 2, reason: 'Nie' });
    expect((await track(set.sets[0]!.id, { tracking_code: 'RR123456789PL' })).statusCode).toBe(409);
    expect((await storedKit(set.sets[0]!.id)).tracking_code).toBeNull();
  });

  it('refuses an empty, 200-character, control-character or wrong-character code with 422, changing nothing', async () => {
    const set = await accepted();
    const kitId = set.sets[0]!.id;
    const before = await auditCount('probe_set_kits', kitId);
    for (const code of [
      '',
      '   ',
      'A'.repeat(200),
      'RR12345\u000078PL',
      'RR123\u0007456PL',
      'RR12;DROP',
      'ŁÓDŹ1234',
      'ABC',
    ]) {
      const res = await track(kitId, { tracking_code: code });
      expect(res.statusCode, JSON.stringify(code)).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.tracking_code).toBeDefined();
    }
    expect((await track(kitId, {})).statusCode).toBe(422);
    expect((await storedKit(kitId)).tracking_code).toBeNull();
    expect(await auditCount('probe_set_kits', kitId)).toBe(before);
  });

  it('saves a normalised code on one kit, audits it, and a new code clears the status and history', async () => {
    const set = await accepted();
    const [kit, other] = set.sets;
    const res = await track(kit!.id, { tracking_code: 'rr 1234-5678 9pl', version: kit!.version });
    expect(res.statusCode).toBe(200);
    const saved = res.json<{ status: string; probe_set: ProbeSet }>();
    expect(saved.status).toBe('success');
    const savedKit = saved.probe_set.sets.find((s) => s.id === kit!.id)!;
    expect(savedKit.shipment).toEqual({
      tracking_code: 'RR123456789PL',
      last_status: null,
      last_status_date: null,
    });
    expect(savedKit.version).toBe(2);
    expect(saved.probe_set.sets.find((s) => s.id === other!.id)!.shipment).toBeNull();
    expect(saved.probe_set.shipment?.tracking_code).toBe('RR123456789PL');
    const [entry] = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'probe_set_kits'),
          eq(auditEntries.entity_id, String(kit!.id)),
          eq(auditEntries.column_name, 'tracking_code'),
        ),
      );
    expect(entry).toMatchObject({
      old_value: null,
      new_value: 'RR123456789PL',
      patient_id: patientId,
    });

    // The provider reported something for this waybill.
    await inTransaction(t.db, admin.session.user.id, async (tx) => {
      await tx
        .update(probeSetKits)
        .set({
          last_status: 'Doręczono',
          last_status_date: new Date(),
          delivered: true,
          last_error: 'x',
        })
        .where(eq(probeSetKits.id, kit!.id));
      await tx.insert(shipmentEvents).values({
        kit_id: kit!.id,
        status: 'Doręczono',
        occurred_at: new Date(),
        place: 'Łódź',
      });
    });
    // The same code again changes nothing.
    const same = await track(kit!.id, { tracking_code: 'RR123456789PL' });
    expect(same.statusCode).toBe(200);
    const sameKit = same
      .json<{ probe_set: ProbeSet }>()
      .probe_set.sets.find((s) => s.id === kit!.id)!;
    expect(sameKit).toMatchObject({ delivered: true, version: 2 });
    expect(sameKit.events).toHaveLength(1);

    const stale = await track(kit!.id, { tracking_code: '00659007734000000001', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ status: 'conflict' });

    const fresh = await track(kit!.id, { tracking_code: '00659007734000000001', version: 2 });
    expect(fresh.statusCode).toBe(200);
    const freshKit = fresh
      .json<{ probe_set: ProbeSet }>()
      .probe_set.sets.find((s) => s.id === kit!.id)!;
    expect(freshKit).toMatchObject({
      shipment: {
        tracking_code: '00659007734000000001',
        last_status: null,
        last_status_date: null,
      },
      delivered: false,
      last_error: null,
      events: [],
      version: 3,
    });
    const [events] = await t.db
      .select({ n: count() })
      .from(shipmentEvents)
      .where(eq(shipmentEvents.kit_id, kit!.id));
    expect(events!.n).toBe(0);
  });

  it("answers 403 to a doctor and 404 for another unit's or a missing kit", async () => {
    const set = await accepted();
    expect(
      (await track(set.sets[0]!.id, { tracking_code: 'RR123456789PL' }, doctor)).statusCode,
    ).toBe(403);
    expect((await track(2147483647, { tracking_code: 'RR123456789PL' })).statusCode).toBe(404);
  });
});

describe("a deleted patient's orders", () => {
  it('stay readable but take no new order, decision or waybill (409 patient_deleted)', async () => {
    const patient = (await registerPatient(t, doctor)).id;
    const registered = await order(patient);
    const acceptedSet = await accepted(patient);
    const removed = await t.request('DELETE', `/api/patients/${patient}`, as(admin));
    expect(removed.statusCode).toBe(200);
    const answers = [
      await t.request('POST', '/api/probe-sets', { ...as(doctor), body: orderBody(patient) }),
      await decide(registered.id, { status: 1 }),
      await track(acceptedSet.sets[0]!.id, { tracking_code: 'RR123456789PL' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ status: 'patient_deleted' });
    }
    expect((await stored(registered.id)).status).toBe(0);
    expect(
      (await t.request('GET', `/api/probe-sets/${registered.id}`, as(doctor))).statusCode,
    ).toBe(200);
  });
});

describe('the refresh of a new waybill', () => {
  const adminActor = (): Actor => ({
    userId: admin.session.user.id,
    sessionId: 0,
    login: admin.login,
    role: 'admin',
    doctorId: null,
    unitId: null,
    changedPasswordAt: new Date(),
  });
  const silent = { warn: () => undefined };

  it('queues shipments.refresh once per kit when the queue runs, and only for a new code', async () => {
    const set = await accepted();
    const kitId = set.sets[0]!.id;
    const sent: unknown[] = [];
    const jobs = {
      running: true,
      send: (name: string, data: { kit_id: number }, options: { singletonKey: string }) => {
        sent.push([name, data, options]);
        return Promise.resolve('job-1');
      },
    };
    await saveTracking(
      t.db,
      adminActor(),
      kitId,
      { tracking_code: 'RR111222333PL', version: await kitVersion(kitId) },
      jobs,
      silent,
    );
    await saveTracking(
      t.db,
      adminActor(),
      kitId,
      { tracking_code: 'RR111222333PL', version: await kitVersion(kitId) },
      jobs,
      silent,
    );
    expect(sent).toEqual([[REFRESH_KIT_JOB, { kit_id: kitId }, { singletonKey: `kit-${kitId}` }]]);
    const idle = { running: false, send: () => Promise.reject(new Error('not running')) };
    await saveTracking(
      t.db,
      adminActor(),
      kitId,
      { tracking_code: 'RR444555666PL', version: await kitVersion(kitId) },
      idle,
      silent,
    );
  });

  it('saves the waybill even when the queue fails, and logs it', async () => {
    const set = await accepted();
    const kitId = set.sets[0]!.id;
    const warnings: string[] = [];
    const broken = { running: true, send: () => Promise.reject(new Error('queue down')) };
    const saved = await saveTracking(
      t.db,
      adminActor(),
      kitId,
      { tracking_code: 'RR777888999PL', version: await kitVersion(kitId) },
      broken,
      { warn: (_details: object, message: string) => void warnings.push(message) },
    );
    expect(saved.sets[0]!.shipment?.tracking_code).toBe('RR777888999PL');
    expect((await storedKit(kitId)).tracking_code).toBe('RR777888999PL');
    expect(warnings).toHaveLength(1);
  });
});

describe('the samples of an order', () => {
  it("lists the samples drawn with its kits, each showing its kit's shipment", async () => {
    const set = await accepted();
    await track(set.sets[1]!.id, { tracking_code: 'RR123456789PL' });
    const linked = await insertProbe(t.db, doctor.session.user.id, patientId, {
      collect_place: 'home',
      probe_set_kit_id: set.sets[1]!.id,
    });
    await insertProbe(t.db, doctor.session.user.id, patientId);
    const res = await t.request('GET', `/api/probe-sets/probes/${set.id}`, as(doctor));
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: { id: number; set: unknown }[] }>().data;
    expect(data.map((p) => p.id)).toEqual([linked.id]);
    expect(data[0]!.set).toEqual({
      id: set.id,
      shipment: { tracking_code: 'RR123456789PL', last_status: null, last_status_date: null },
    });
    expect(
      (await t.request('GET', `/api/probe-sets/probes/${set.id}`, as(stranger))).statusCode,
    ).toBe(404);
  });
});

describe('a home sample drawn with a kit', () => {
  async function sampleBody(patient: number, extra: Record<string, unknown>) {
    const [carrier] = await t.db
      .select({ id: carriers.id })
      .from(carriers)
      .where(eq(carriers.is_visible, true))
      .limit(1);
    const [medicine] = await t.db.select({ id: medicines.id }).from(medicines).limit(1);
    return {
      patient_id: patient,
      medicine_ids: [medicine!.id],
      date_of_sample: '2026-01-10',
      carrier_id: carrier!.id,
      ordered_by_firstname: 'Anna',
      ordered_by_surname: 'Lekarska',
      ordered_at: '2026-01-10',
      patient_firstname: 'Zenon',
      patient_surname: 'Kitowski',
      patient_address_street: 'Długa',
      patient_address_building: '5',
      patient_address_postcode: '00-001',
      patient_address_city: 'Łódź',
      collect_place: 'home',
      ...extra,
    };
  }
  const create = async (patient: number, extra: Record<string, unknown>) =>
    t.request('POST', '/api/probes', { ...as(doctor), body: await sampleBody(patient, extra) });

  it("links a home sample to a kit of the patient's accepted order; the sample and both lists show its shipment", async () => {
    const set = await accepted();
    await track(set.sets[0]!.id, { tracking_code: 'RR987654321PL' });
    const res = await create(patientId, { probe_set_kit_id: set.sets[0]!.id });
    expect(res.statusCode).toBe(201);
    const probe = res.json<{ probe: { id: number; set: unknown } }>().probe;
    const shipment = { tracking_code: 'RR987654321PL', last_status: null, last_status_date: null };
    expect(probe.set).toEqual({ id: set.id, shipment });
    const list = await t.request('GET', '/api/probes', {
      ...as(doctor),
      query: { patientIds: String(patientId) },
    });
    const row = list
      .json<{ data: { id: number; shipment: unknown }[] }>()
      .data.find((p) => p.id === probe.id);
    expect(row!.shipment).toEqual(shipment);
    const ofSet = await t.request('GET', `/api/probe-sets/probes/${set.id}`, as(doctor));
    expect(ofSet.json<{ data: { id: number }[] }>().data.map((p) => p.id)).toEqual([probe.id]);
  });

  it("refuses a kit of a registered order, another patient's kit, a missing kit and a clinic sample (422)", async () => {
    const registered = await order();
    const other = await accepted(otherPatientId);
    const mine = await accepted();
    const [before] = await t.db.select({ n: count() }).from(probes);
    for (const extra of [
      { probe_set_kit_id: registered.sets[0]!.id },
      { probe_set_kit_id: other.sets[0]!.id },
      { probe_set_kit_id: 2147483647 },
      { probe_set_kit_id: mine.sets[0]!.id, collect_place: 'clinic' },
    ]) {
      const res = await create(patientId, extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      // The code `invalid`, sent as its Polish message (ADR 005).
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
        probe_set_kit_id: ['Niektóre pola są nieprawidłowe'],
      });
    }
    const [after] = await t.db.select({ n: count() }).from(probes);
    expect(after!.n).toBe(before!.n);
  });
});

describe('the list', () => {
  let listPatient: number;
  let ids: number[];
  beforeAll(async () => {
    listPatient = (await registerPatient(t, stranger, { firstname: 'Łucja', surname: 'Żądło' })).id;
    ids = [];
    for (let i = 1; i <= 5; i++) {
      ids.push((await order(listPatient, { amount: i }, stranger)).id);
    }
    await decide(ids[1]!, { status: 1 });
    await decide(ids[2]!, { status: 2, reason: 'Nie' });
  });

  const list = (query: Record<string, string>, who: { session: { token: string } } = stranger) =>
    t.request('GET', '/api/probe-sets', { ...as(who), query });

  it("shows a doctor only the own unit's orders, newest first, 20 a page by default", async () => {
    const res = await list({});
    expect(res.statusCode).toBe(200);
    const page = res.json<ProbeSetPage>();
    expect(page.data.map((row) => row.id)).toEqual(
      [...ids].reverse().concat(page.data.map((row) => row.id).filter((id) => !ids.includes(id))),
    );
    expect(
      page.data.every(
        (row) => row.patient_id === listPatient || row.patient_id === strangersPatientId,
      ),
    ).toBe(true);
    expect(page.total_kind).toBe('exact');
    expect(page.data[0]).not.toHaveProperty('sets');
    const mine = await list({ patientIds: String(listPatient) }, doctor);
    expect(mine.json<ProbeSetPage>()).toMatchObject({ data: [], total: 0 });
  });

  it('filters by patients, status, created day and name, and pages', async () => {
    const byPatient = (await list({ patientIds: `${listPatient}` })).json<ProbeSetPage>();
    expect(byPatient.total).toBe(5);
    const byStatus = (
      await list({ patientIds: `${listPatient}`, status: '2' })
    ).json<ProbeSetPage>();
    expect(byStatus.data.map((row) => row.id)).toEqual([ids[2]]);
    expect(byStatus.data[0]).toMatchObject({ status: 2, reason: 'Nie' });
    const byName = (
      await list({ search: 'zadlo', limit: '2', page: '2' }, admin)
    ).json<ProbeSetPage>();
    expect(byName.total).toBe(5);
    expect(byName.data.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    const shortName = (await list({ search: 'Żą' }, admin)).json<ProbeSetPage>();
    expect(shortName.total).toBe(5);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw' }).format(
      new Date(),
    );
    const byDay = (
      await list({ patientIds: `${listPatient}`, from_date: today, to_date: today })
    ).json<ProbeSetPage>();
    expect(byDay.total).toBe(5);
    const before = (
      await list({ patientIds: `${listPatient}`, to_date: '2020-01-01' })
    ).json<ProbeSetPage>();
    expect(before.total).toBe(0);
  });

  it('sorts by every column both ways', async () => {
    const byAmount = (
      await list({ patientIds: `${listPatient}`, order_by: 'amount', order_direction: 'ASC' })
    ).json<ProbeSetPage>();
    expect(byAmount.data.map((row) => row.amount)).toEqual([1, 2, 3, 4, 5]);
    const byStatus = (
      await list({ patientIds: `${listPatient}`, order_by: 'status', order_direction: 'desc' })
    ).json<ProbeSetPage>();
    expect(byStatus.data.map((row) => row.status)).toEqual([2, 1, 0, 0, 0]);
    for (const order_by of ['id', 'created_at', 'patient']) {
      for (const order_direction of ['asc', 'desc']) {
        const res = await list({ order_by, order_direction }, admin);
        expect(res.statusCode).toBe(200);
      }
    }
    const byPatient = (
      await list({ order_by: 'patient', order_direction: 'asc' }, admin)
    ).json<ProbeSetPage>();
    const names = byPatient.data.map((row) => row.patient.surname);
    expect(names[0]).toBe('Adamska');
  });

  it('refuses an unknown sort, status or limit (422)', async () => {
    const queries: Record<string, string>[] = [
      { order_by: 'reason' },
      { status: '5' },
      { limit: '101' },
      { from_date: '2026-13-01' },
    ];
    for (const query of queries) {
      expect((await list(query)).statusCode, JSON.stringify(query)).toBe(422);
    }
  });

  it("shows the order's shipment: the least advanced kit with a waybill", async () => {
    const set = await accepted(listPatient, stranger);
    await track(set.sets[0]!.id, { tracking_code: 'AAAA1111' });
    await track(set.sets[1]!.id, { tracking_code: 'BBBB2222' });
    await t.db
      .update(probeSetKits)
      .set({ delivered: true, last_status: 'Doręczono' })
      .where(inArray(probeSetKits.id, [set.sets[0]!.id]));
    const page = (await list({ patientIds: `${listPatient}` }, admin)).json<ProbeSetPage>();
    expect(page.data.find((row) => row.id === set.id)!.shipment?.tracking_code).toBe('BBBB2222');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('of an accept and a reject at the same moment exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const set = await order();
      const answers = await Promise.all([
        decide(set.id, { status: 1 }),
        decide(set.id, { status: 2, reason: 'Równocześnie' }),
      ]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({
        status: 'already_decided',
      });
      expect((await stored(set.id)).version).toBe(2);
    }
  });
});
