import { warsawToday } from '@portal/shared';
import type {
  DataQuery,
  Monitor,
  PatientDetail,
  PatientListItem,
  ProbeDetail,
  Visit,
} from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, ReadyMonitor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { countOpenQueriesByUnit } from './index.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
/** A doctor of the monitor's second unit. */
let second: ReadyDoctor;
/** A doctor of a unit the monitor does not reach. */
let stranger: ReadyDoctor;
let monitor: ReadyMonitor;
let unitA: number;
let unitB: number;
let unitC: number;
let minute = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  unitA = (await t.unit()).id;
  unitB = (await t.unit()).id;
  unitC = (await t.unit()).id;
  doctor = await t.readyDoctor(unitA);
  second = await t.readyDoctor(unitB);
  stranger = await t.readyDoctor(unitC);
  monitor = await t.readyMonitor([unitA, unitB]);
});
afterAll(() => t?.close());

type Who = { session: { token: string } };
const get = (who: Who, url: string, query?: Record<string, string>) =>
  t.request('GET', url, { token: who.session.token, ...(query ? { query } : {}) });
/** A unit's open queries in the map the service answers (none: 0). */
const countOpenQueriesOf = (counts: Map<number, number>, unit: number) => counts.get(unit) ?? 0;

const post = (who: Who, url: string, body?: unknown) =>
  t.request('POST', url, { token: who.session.token, ...(body === undefined ? {} : { body }) });

async function insertVisit(patientId: number, by: ReadyDoctor = doctor): Promise<number> {
  minute += 2;
  const clock = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
  const [row] = await inTransaction(t.db, by.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patientId,
        unit_id: by.doctor.unit_id,
        doctor_id: by.doctor.id,
        date: warsawToday(),
        started_at: clock(minute),
        ended_at: clock(minute + 1),
        is_done: true,
        qt: 400,
      })
      .returning({ id: visits.id }),
  );
  return row!.id;
}

async function openQuery(recordType: string, recordId: number, field?: string) {
  const res = await post(monitor, '/api/queries', {
    record_type: recordType,
    record_id: recordId,
    ...(field ? { field } : {}),
    text: 'Proszę sprawdzić wartość w dokumentacji źródłowej.',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ query: DataQuery }>().query;
}

describe('the monitor role', () => {
  it('signs in at /api/auth/login/monitor with printed details and must change the password', async () => {
    const res = await post(admin, '/api/monitors', {
      firstname: 'Ewa',
      surname: 'Monitorska',
      email: `ewa.${Date.now()}@cro.example`,
      phone_number: '600700800',
      unit_ids: [unitA],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<{ data: Monitor }>().data;
    expect(created.unit_ids).toEqual([unitA]);
    const printed = await get(admin, `/api/monitors/print_login_detail/${created.id}`);
    expect(printed.statusCode).toBe(200);
    const { login, password } = printed.json<{ login: string; password: string }>();
    const session = await t.login('monitor', login, password);
    expect(session.user.role).toBe('monitor');
    expect(session.user.surname).toBe('Monitorska');
    // Before the password is changed, nothing but the password change.
    const early = await get({ session }, '/api/patients');
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ status: 'password_change_required' });
    // A monitor's login is not a doctor's.
    const asDoctor = await t.request('POST', '/api/auth/login/doctor', {
      body: { login, password },
    });
    expect(asDoctor.statusCode).toBe(401);
  });

  it('administrators manage monitors like doctors: list, edit (version), delete, restore; 409 exist_monitor', async () => {
    const list = await get(admin, '/api/monitors', { search: monitor.monitor.surname });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: Monitor[]; total: number }>().data.map((m) => m.id)).toEqual([
      monitor.monitor.id,
    ]);
    const res = await post(admin, '/api/monitors', {
      firstname: 'X',
      surname: 'Y',
      email: monitor.login,
      phone_number: '600700800',
      unit_ids: [unitA],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'exist_monitor' });
    const bad = await post(admin, '/api/monitors', {
      firstname: 'X',
      surname: 'Y',
      email: 'nowy@cro.example',
      phone_number: '600700800',
      unit_ids: [],
    });
    expect(bad.statusCode).toBe(422);
    const other = await t.readyMonitor([unitC]);
    const stale = await t.request('PUT', `/api/monitors/${other.monitor.id}`, {
      token: admin.session.token,
      body: { ...other.monitor, unit_ids: [unitC, unitB], version: other.monitor.version + 1 },
    });
    expect(stale.statusCode).toBe(409);
    const saved = await t.request('PUT', `/api/monitors/${other.monitor.id}`, {
      token: admin.session.token,
      body: {
        firstname: other.monitor.firstname,
        surname: other.monitor.surname,
        email: other.monitor.email,
        phone_number: other.monitor.phone_number,
        unit_ids: [unitC, unitB],
        version: other.monitor.version,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: Monitor }>().data.unit_ids.sort()).toEqual([unitB, unitC].sort());
    const gone = await t.request('DELETE', `/api/monitors/${other.monitor.id}`, {
      token: admin.session.token,
    });
    expect(gone.statusCode).toBe(200);
    expect((await get(other, '/api/patients')).statusCode).toBe(401);
    const back = await t.request('PUT', `/api/monitors/restore/${other.monitor.id}`, {
      token: admin.session.token,
    });
    expect(back.statusCode).toBe(200);
  });

  it('monitor routes: 401 without a session, 403 for a doctor and a monitor', async () => {
    expect((await t.request('GET', '/api/monitors')).statusCode).toBe(401);
    expect((await get(doctor, '/api/monitors')).statusCode).toBe(403);
    expect((await get(monitor, '/api/monitors')).statusCode).toBe(403);
  });

  it('reads patients, visits and samples of the assigned units, PESEL and contacts hidden', async () => {
    const patient = await registerPatient(t, doctor);
    const elsewhere = await registerPatient(t, second);
    const foreign = await registerPatient(t, stranger);
    const detail = await get(monitor, `/api/patients/${patient.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const shown = detail.json<PatientDetail>();
    expect(shown.firstname).toBe('Tadeusz');
    expect(shown.pesel).not.toMatch(/\d/);
    expect(shown.phone_number).toBe('');
    expect(shown.email).toBeNull();
    expect(shown.address_street).toBeNull();
    expect(shown.abilities).toMatchObject({ edit: false, delete: false, book: false });
    // Both assigned units, not the third.
    expect((await get(monitor, `/api/patients/${elsewhere.id}`)).statusCode).toBe(200);
    expect((await get(monitor, `/api/patients/${foreign.id}`)).statusCode).toBe(404);
    const list = await get(monitor, '/api/patients', { limit: '100' });
    const ids = list.json<{ data: PatientListItem[] }>().data.map((p) => p.id);
    expect(ids).toContain(patient.id);
    expect(ids).toContain(elsewhere.id);
    expect(ids).not.toContain(foreign.id);
    for (const row of list.json<{ data: PatientListItem[] }>().data) {
      expect(row.pesel).not.toMatch(/\d/);
      expect(row.phone_number).toBe('');
    }
    // Whether a PESEL is taken names a patient: refused.
    const pesel = await get(monitor, '/api/patients/validate_pesel', { pesel: '44051401359' });
    expect(pesel.statusCode).toBe(403);
    const visit = await insertVisit(patient.id);
    expect((await get(monitor, `/api/visits/${visit}`)).statusCode).toBe(200);
    const foreignVisit = await insertVisit(foreign.id, stranger);
    expect((await get(monitor, `/api/visits/${foreignVisit}`)).statusCode).toBe(404);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    const sample = await get(monitor, `/api/probes/${probe.id}`);
    expect(sample.statusCode).toBe(200);
    expect(sample.json<ProbeDetail>().patient_address_street).toBe('');
    // The audit trail of a reachable patient, identity values hidden; another unit's 404.
    const trail = await get(monitor, '/api/audit_trial', {
      patientIds: String(patient.id),
      limit: '100',
    });
    expect(trail.statusCode, trail.body).toBe(200);
    const entries = trail.json<{ data: { column_name: string; new_value: string | null }[] }>()
      .data;
    expect(entries.find((e) => e.column_name === 'pesel')?.new_value).toBeNull();
    expect(entries.find((e) => e.column_name === 'firstname')?.new_value).toBe('Tadeusz');
    const identified = (await get(doctor, `/api/patients/${patient.id}`)).json<PatientDetail>();
    expect(trail.body).not.toContain(identified.pesel);
    expect(trail.body).not.toContain(identified.phone_number);
    expect(
      (await get(monitor, '/api/audit_trial', { patientIds: String(foreign.id) })).statusCode,
    ).toBe(404);
    expect((await get(monitor, '/api/audit_trial')).statusCode).toBe(422);
  });

  it('writes no patient data: every write 403', async () => {
    const patient = await registerPatient(t, doctor);
    const visit = await insertVisit(patient.id);
    const token = monitor.session.token;
    const writes = [
      t.request('PUT', `/api/patients/${patient.id}`, { token, body: {} }),
      t.request('DELETE', `/api/patients/${patient.id}`, { token }),
      t.request('POST', '/api/patients', { token, body: {} }),
      t.request('PUT', `/api/visits/${visit}/results`, { token, body: {} }),
      t.request('POST', '/api/visits', { token, body: {} }),
      t.request('POST', '/api/probes', { token, body: {} }),
      t.request('POST', '/api/patients/notes', { token, body: { patient_id: patient.id } }),
      t.request('POST', '/api/signatures', { token, body: {} }),
      t.request('POST', '/api/doctors', { token, body: {} }),
    ];
    for (const res of await Promise.all(writes)) expect(res.statusCode, res.body).toBe(403);
  });
});

describe('source data verification', () => {
  it('marks a visit verified; a later change clears it and the record says so', async () => {
    const patient = await registerPatient(t, doctor);
    const visit = await insertVisit(patient.id);
    const res = await post(monitor, '/api/verifications', {
      record_type: 'visit',
      record_id: visit,
    });
    expect(res.statusCode, res.body).toBe(201);
    const detail = (await get(doctor, `/api/visits/${visit}`)).json<Visit>();
    expect(detail.verified).toMatchObject({ by: { id: monitor.session.user.id } });
    expect(detail.changed_after_verification_at).toBeNull();
    await t.db.execute(sql`update visits set qt = 420 where id = ${visit}`);
    const after = (await get(doctor, `/api/visits/${visit}`)).json<Visit>();
    expect(after.verified).toBeNull();
    expect(after.changed_after_verification_at).not.toBeNull();
  });

  it("a patient's sections: a changed medicine clears the mark", async () => {
    const patient = await registerPatient(t, doctor);
    expect(
      (await post(monitor, '/api/verifications', { record_type: 'patient', record_id: patient.id }))
        .statusCode,
    ).toBe(201);
    expect(
      (await get(monitor, `/api/patients/${patient.id}`)).json<PatientDetail>().verified,
    ).not.toBeNull();
    await t.db.execute(
      sql`update patient_inclusions set dose = 7 where patient_id = ${patient.id}`,
    );
    const after = (await get(monitor, `/api/patients/${patient.id}`)).json<PatientDetail>();
    expect(after.verified).toBeNull();
    expect(after.changed_after_verification_at).not.toBeNull();
  });

  it('401, 403 for a doctor, 404 for another unit', async () => {
    const foreign = await registerPatient(t, stranger);
    const body = { record_type: 'patient', record_id: foreign.id };
    expect((await t.request('POST', '/api/verifications', { body })).statusCode).toBe(401);
    expect((await post(doctor, '/api/verifications', body)).statusCode).toBe(403);
    expect((await post(monitor, '/api/verifications', body)).statusCode).toBe(404);
  });
});

describe('queries', () => {
  it('open → answered by the site → closed and reopened by the monitor, each step audited', async () => {
    const patient = await registerPatient(t, doctor);
    const visit = await insertVisit(patient.id);
    const query = await openQuery('visit', visit, 'qt');
    expect(query).toMatchObject({ status: 'open', field: 'qt', unit_id: unitA, age_days: 0 });
    expect(query.messages).toHaveLength(1);
    // Shown on the record and the patient card.
    expect((await get(doctor, `/api/visits/${visit}`)).json<Visit>().open_queries).toBe(1);
    expect(
      (await get(doctor, `/api/patients/${patient.id}`)).json<PatientDetail>().open_queries,
    ).toBe(1);
    // The site answers.
    const answered = await post(doctor, `/api/queries/${query.id}/messages`, {
      text: 'Poprawiono zgodnie z EKG.',
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<{ query: DataQuery }>().query.status).toBe('answered');
    // A doctor does not close a monitor's query.
    const refused = await post(doctor, `/api/queries/${query.id}/close`);
    expect(refused.statusCode).toBe(403);
    expect(
      (await get(doctor, '/api/queries', { record_type: 'visit', record_id: String(visit) })).json<{
        data: DataQuery[];
      }>().data[0]?.status,
    ).toBe('answered');
    const closed = await post(monitor, `/api/queries/${query.id}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json<{ query: DataQuery }>().query.status).toBe('closed');
    expect((await post(monitor, `/api/queries/${query.id}/close`)).statusCode).toBe(409);
    expect(
      (await post(doctor, `/api/queries/${query.id}/messages`, { text: 'Jeszcze' })).statusCode,
    ).toBe(409);
    const reopened = await post(monitor, `/api/queries/${query.id}/reopen`);
    expect(reopened.json<{ query: DataQuery }>().query.status).toBe('open');
    const trail = await get(admin, '/api/audit_trial', {
      patientIds: String(patient.id),
      limit: '100',
    });
    const statuses = trail
      .json<{ data: { entity_name: string; column_name: string; new_value: string | null }[] }>()
      .data.filter((e) => e.entity_name === 'queries' && e.column_name === 'status')
      .map((e) => e.new_value);
    expect(statuses.sort()).toEqual(['answered', 'closed', 'open', 'open'].sort());
  });

  it('the list per unit, paged with its total; another unit 404; counts per unit', async () => {
    const patient = await registerPatient(t, second);
    await openQuery('patient', patient.id, 'weight');
    await openQuery('patient', patient.id);
    const list = await get(monitor, '/api/queries', {
      unit_id: String(unitB),
      status: 'open',
      limit: '1',
    });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json<{ data: DataQuery[]; total: number; total_kind: string }>();
    expect(body.data).toHaveLength(1);
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.data[0]).toHaveProperty('age_days');
    expect((await get(second, '/api/queries', { unit_id: String(unitA) })).statusCode).toBe(404);
    expect((await get(stranger, '/api/queries', { unit_id: String(unitB) })).statusCode).toBe(404);
    const theirs = await get(stranger, '/api/queries');
    expect(theirs.json<{ data: DataQuery[] }>().data).toEqual([]);
    const counts = await countOpenQueriesByUnit(t.db, [unitB, unitC]);
    expect(counts.get(unitB)).toBeGreaterThanOrEqual(2);
    expect(counts.get(unitC)).toBeUndefined();
  });

  it("tells the site's doctors of a new query and counts it on the dashboard", async () => {
    const patient = await registerPatient(t, second);
    const before = await get(admin, '/api/dashboard', { unit_id: String(unitB) });
    expect(before.statusCode, before.body).toBe(200);
    const open = before.json<{ queries_open: number }>().queries_open;
    expect(open).toBe(countOpenQueriesOf(await countOpenQueriesByUnit(t.db, [unitB]), unitB));
    const opened = await post(monitor, '/api/queries', {
      record_type: 'patient',
      record_id: patient.id,
      text: 'Proszę potwierdzić wagę',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const { id } = opened.json<{ query: DataQuery }>().query;
    const after = await get(admin, '/api/dashboard', { unit_id: String(unitB) });
    expect(after.json<{ queries_open: number }>().queries_open).toBe(open + 1);
    // The bell of the unit's doctor, in the query's own transaction (ADR 061).
    const bell = await get(second, '/api/notifications');
    expect(bell.statusCode, bell.body).toBe(200);
    const notes = bell.json<{ data: { type: string; params: Record<string, unknown> }[] }>().data;
    expect(notes.some((n) => n.type === 'query_opened')).toBe(true);
    expect(id).toBeGreaterThan(0);
  });

  it('401, 403, 404 and bad input', async () => {
    const foreign = await registerPatient(t, stranger);
    const patient = await registerPatient(t, doctor);
    const body = { record_type: 'patient', record_id: patient.id, text: 'Pytanie' };
    expect((await t.request('POST', '/api/queries', { body })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/queries')).statusCode).toBe(401);
    expect((await post(doctor, '/api/queries', body)).statusCode).toBe(403);
    expect((await post(admin, '/api/queries', body)).statusCode).toBe(403);
    expect(
      (await post(monitor, '/api/queries', { ...body, record_id: foreign.id })).statusCode,
    ).toBe(404);
    const field = await post(monitor, '/api/queries', { ...body, field: 'pesel' });
    expect(field.statusCode).toBe(422);
    expect(field.json()).toMatchObject({ errors: { field: [expect.any(String)] } });
    const empty = await post(monitor, '/api/queries', { ...body, text: '   ' });
    expect(empty.statusCode).toBe(422);
    const query = await openQuery('patient', patient.id);
    expect(
      (await post(stranger, `/api/queries/${query.id}/messages`, { text: 'Obcy' })).statusCode,
    ).toBe(404);
    expect((await post(monitor, '/api/queries/2147483648/close')).statusCode).toBe(404);
  });

  it('a sample query shows on the sample', async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    await openQuery('probe', probe.id, 'alt');
    expect((await get(doctor, `/api/probes/${probe.id}`)).json<ProbeDetail>().open_queries).toBe(1);
  });
});
