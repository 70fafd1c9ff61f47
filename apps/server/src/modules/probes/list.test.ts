import type { probePage } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import type { z } from 'zod';

type ProbePage = z.infer<typeof probePage>;

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
/** Patients: two of unit A, one of unit B. */
const patient: Record<'sedziak' | 'kowalski' | 'nowak', number> = {
  sedziak: 0,
  kowalski: 0,
  nowak: 0,
};
/** Samples by their number of this fixture (1-5), as ids. */
const probe: Record<number, number> = {};

interface ProbeFixture {
  n: number;
  patientId: number;
  code: string;
  names: [surname: string, firstname: string];
  /** An instant with its offset (Warsaw's winter time is +01). */
  createdAt: string;
  material: 'venous' | 'capillary';
  status: 'collected' | 'sent' | 'received';
}

/** A sample written directly (creating one is another module's): only the list is tested. */
async function insertProbe(p: ProbeFixture) {
  const result: unknown = await t.db.execute(sql`
    insert into probes (code, patient_id, probe_number, status, date_of_sample, type_of_material,
      carrier_id, ordered_by_firstname, ordered_by_surname, ordered_at, patient_firstname,
      patient_surname, patient_address_street, patient_address_building, patient_address_postcode,
      patient_address_city, created_at)
    values (${p.code}, ${p.patientId}, ${p.n}, ${p.status}, '2026-03-01', ${p.material},
      (select min(id) from carriers), 'Anna', 'Lekarska', '2026-03-01', ${p.names[1]},
      ${p.names[0]}, 'Długa', '1', '00-001', 'Łódź', ${p.createdAt}::timestamptz)
    returning id`);
  probe[p.n] = Number((result as { rows: { id: number }[] }).rows[0]!.id);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctorA = await t.readyDoctor((await t.unit()).id);
  doctorB = await t.readyDoctor((await t.unit()).id);
  patient.sedziak = (await registerPatient(t, doctorA, { surname: 'Sędziak' })).id;
  patient.kowalski = (await registerPatient(t, doctorA, { surname: 'Kowalski' })).id;
  patient.nowak = (await registerPatient(t, doctorB, { surname: 'Nowak' })).id;
  const sedziak: [string, string] = ['Sędziak', 'Łucja'];
  const kowalski: [string, string] = ['Kowalski', 'Jan'];
  await insertProbe({
    n: 1,
    patientId: patient.sedziak,
    code: 'A001-1',
    names: sedziak,
    createdAt: '2026-03-01T10:00:00+01',
    material: 'venous',
    status: 'collected',
  });
  await insertProbe({
    n: 2,
    patientId: patient.sedziak,
    code: 'A001-2',
    names: sedziak,
    // 2 March in Warsaw, half an hour before its end.
    createdAt: '2026-03-02T23:30:00+01',
    material: 'capillary',
    status: 'sent',
  });
  await insertProbe({
    n: 3,
    patientId: patient.kowalski,
    code: 'B002-1',
    names: kowalski,
    // 3 March in Warsaw, still 2 March in UTC.
    createdAt: '2026-03-03T00:30:00+01',
    material: 'venous',
    status: 'received',
  });
  await insertProbe({
    n: 4,
    patientId: patient.nowak,
    code: 'C003-1',
    names: ['Nowak', 'Anna'],
    createdAt: '2026-03-02T12:00:00+01',
    material: 'capillary',
    status: 'collected',
  });
  await insertProbe({
    n: 5,
    patientId: patient.kowalski,
    code: 'B002-2',
    names: kowalski,
    // The same instant as sample 1: the id breaks the tie.
    createdAt: '2026-03-01T10:00:00+01',
    material: 'venous',
    status: 'collected',
  });
});
afterAll(async () => {
  await t?.close();
});

async function list(token: string, query: Record<string, string> = {}) {
  const res = await t.request('GET', '/api/probes', { token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProbePage>();
}

/** The fixture numbers (1-5) of a page, in its order. */
function numbers(page: ProbePage): number[] {
  const byId = new Map(Object.entries(probe).map(([n, id]) => [id, Number(n)]));
  return page.data.map((row) => byId.get(row.id) ?? -1);
}

const asAdmin = (query: Record<string, string> = {}) => list(admin.session.token, query);

describe('GET /api/probes', () => {
  it('answers every sample to an administrator, newest first, with the id breaking ties', async () => {
    const page = await asAdmin();
    expect(numbers(page)).toEqual([3, 2, 4, 5, 1]);
    expect(page).toMatchObject({ total: 5, total_kind: 'exact' });
    expect(page.data[0]).toEqual({
      id: probe[3],
      code: 'B002-1',
      created_at: '2026-03-02T23:30:00.000Z',
      date_of_sample: '2026-03-01',
      status: 'received',
      type_of_test: 'biochemistry',
      type_of_material: 'venous',
      collect_place: 'clinic',
      patient_id: patient.kowalski,
      patient: { firstname: 'Jan', surname: 'Kowalski' },
      shipment: null,
    });
  });

  it("shows a doctor only the samples of the own unit's patients", async () => {
    expect(numbers(await list(doctorA.session.token))).toEqual([3, 2, 5, 1]);
    const b = await list(doctorB.session.token);
    expect(numbers(b)).toEqual([4]);
    expect(b.total).toBe(1);
    // Naming another unit's patient shows nothing of it.
    const named = await list(doctorB.session.token, { patientIds: String(patient.sedziak) });
    expect(named).toEqual({ data: [], total: 0, total_kind: 'exact' });
    const both = await list(doctorA.session.token, {
      patientIds: `${patient.nowak},${patient.sedziak}`,
    });
    expect(numbers(both)).toEqual([2, 1]);
  });

  it('filters by patients', async () => {
    expect(numbers(await asAdmin({ patientIds: String(patient.sedziak) }))).toEqual([2, 1]);
    const two = await asAdmin({
      patientIds: `${patient.nowak},${patient.kowalski},${patient.nowak}`,
    });
    expect(numbers(two)).toEqual([3, 4, 5]);
    expect(two.total).toBe(3);
  });

  it('filters by the created day in Warsaw, both ends included', async () => {
    expect(numbers(await asAdmin({ from_date: '2026-03-02', to_date: '2026-03-02' }))).toEqual([
      2, 4,
    ]);
    expect(numbers(await asAdmin({ from_date: '2026-03-03' }))).toEqual([3]);
    expect(numbers(await asAdmin({ to_date: '2026-03-01' }))).toEqual([5, 1]);
    const none = await asAdmin({ from_date: '2026-03-04', to_date: '2026-03-01' });
    expect(none).toEqual({ data: [], total: 0, total_kind: 'exact' });
  });

  it('searches the number and the names without case or diacritics', async () => {
    expect(numbers(await asAdmin({ search: 'sedziak' }))).toEqual([2, 1]);
    expect(numbers(await asAdmin({ search: 'ŁUCJA' }))).toEqual([2, 1]);
    expect(numbers(await asAdmin({ search: 'Jan Kowalski' }))).toEqual([3, 5]);
    expect(numbers(await asAdmin({ search: 'kowalski jan' }))).toEqual([3, 5]);
    expect(numbers(await asAdmin({ search: 'b002' }))).toEqual([3, 5]);
    expect(numbers(await asAdmin({ search: '002-2' }))).toEqual([5]);
    // Short terms match the start of the number, the surname or the first name.
    expect(numbers(await asAdmin({ search: 'lu' }))).toEqual([2, 1]);
    expect(numbers(await asAdmin({ search: 'c0' }))).toEqual([4]);
    expect(numbers(await asAdmin({ search: 'a' }))).toEqual([2, 4, 1]);
    // Wildcards are characters.
    expect((await asAdmin({ search: '%' })).total).toBe(0);
    expect((await asAdmin({ search: '___' })).total).toBe(0);
    // A doctor's search stays within the own unit.
    expect(numbers(await list(doctorB.session.token, { search: 'sedziak' }))).toEqual([]);
  });

  it.each([
    ['created_at', 'asc', [1, 5, 4, 2, 3]],
    ['code', 'asc', [1, 2, 3, 5, 4]],
    ['code', 'desc', [4, 5, 3, 2, 1]],
    ['patient', 'asc', [3, 5, 4, 1, 2]],
    ['patient', 'desc', [2, 1, 4, 5, 3]],
    ['type_of_material', 'asc', [2, 4, 1, 3, 5]],
    ['type_of_material', 'desc', [5, 3, 1, 4, 2]],
    ['status', 'asc', [1, 4, 5, 3, 2]],
    ['status', 'DESC', [2, 3, 5, 4, 1]],
  ])('sorts by %s %s', async (order_by, order_direction, expected) => {
    expect(numbers(await asAdmin({ order_by, order_direction }))).toEqual(expected);
  });

  it("sorts by the kit's shipment status, copied onto its samples and kept in step (ADR 039)", async () => {
    // Two kits of one order of Sędziak's: sample 1 in kit 1, sample 2 in kit 2. Kit 2 has no
    // waybill yet, so its status is no shipment's (null, last in ascending order).
    const ids = async (query: string) =>
      ((await t.db.execute(sql.raw(query))) as { rows: { id: number }[] }).rows.map((r) =>
        Number(r.id),
      );
    const [set] = await ids(`insert into probe_sets (patient_id, amount, street, building,
      postcode, city) values (${patient.sedziak}, 2, 'Długa', '1', '00-001', 'Łódź') returning id`);
    const [kit1, kit2] = await ids(`insert into probe_set_kits (probe_set_id, patient_id,
      kit_number, tracking_code, last_status) values
      (${set}, ${patient.sedziak}, 1, 'PX00000000001', 'W drodze'),
      (${set}, ${patient.sedziak}, 2, null, 'Nadana') returning id`);
    await t.db.execute(sql`update probes set probe_set_kit_id = ${kit1} where id = ${probe[1]!}`);
    await t.db.execute(sql`update probes set probe_set_kit_id = ${kit2} where id = ${probe[2]!}`);
    const shipmentAsc = { order_by: 'shipment_status', order_direction: 'asc' };
    // Nulls last ascending (the others by id), first descending.
    expect(numbers(await asAdmin(shipmentAsc))).toEqual([1, 2, 3, 4, 5]);
    expect(numbers(await asAdmin({ ...shipmentAsc, order_direction: 'desc' }))).toEqual([
      5, 4, 3, 2, 1,
    ]);
    // The kit's waybill and a new status reach the sample: "Doręczona" sorts before "W drodze".
    await t.db.execute(
      sql`update probe_set_kits set tracking_code = 'PX00000000002', last_status = 'Doręczona' where id = ${kit2!}`,
    );
    expect(numbers(await asAdmin(shipmentAsc))).toEqual([2, 1, 3, 4, 5]);
    const page = await asAdmin({ ...shipmentAsc, search: 'sedziak' });
    expect(numbers(page)).toEqual([2, 1]);
    expect(page.data[0]!.shipment).toMatchObject({ last_status: 'Doręczona' });
    // The copy is no audit entry of the sample's (the kit's own change is).
    const audited = await ids(`select id from audit_entries where entity_name = 'probes'
      and column_name = 'shipment_status'`);
    expect(audited).toEqual([]);
    // Back as it was for the other tests.
    await t.db.execute(
      sql`update probes set probe_set_kit_id = null where probe_set_kit_id is not null`,
    );
    expect(numbers(await asAdmin(shipmentAsc))).toEqual([1, 2, 3, 4, 5]);
  });

  it('sorts the matches of a search', async () => {
    const byPatient = { order_by: 'patient', order_direction: 'asc' };
    expect(numbers(await asAdmin({ search: 'a00', ...byPatient }))).toEqual([1, 2]);
    expect(numbers(await asAdmin({ search: 'kowalski', order_by: 'code' }))).toEqual([5, 3]);
    expect(numbers(await asAdmin({ search: 'k', ...byPatient, limit: '1', page: '2' }))).toEqual([
      5,
    ]);
  });

  it('pages, with the total of the whole list', async () => {
    const second = await asAdmin({ limit: '2', page: '2' });
    expect(numbers(second)).toEqual([4, 5]);
    expect(second.total).toBe(5);
    const past = await asAdmin({ limit: '2', page: '10' });
    expect(past).toEqual({ data: [], total: 5, total_kind: 'exact' });
  });

  it.each([
    [{ order_by: 'patient_surname' }, 'order_by'],
    [{ order_direction: 'sideways' }, 'order_direction'],
    [{ from_date: '2026-02-30' }, 'from_date'],
    [{ to_date: '03.03.2026' }, 'to_date'],
    [{ patientIds: '1,x' }, 'patientIds'],
    [{ limit: '0' }, 'limit'],
  ])('refuses %o with 422 on %s', async (query, field) => {
    const res = await t.request('GET', '/api/probes', { token: admin.session.token, query });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toContain(field);
  });
});
