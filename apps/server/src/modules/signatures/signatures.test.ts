import { warsawToday } from '@portal/shared';
import type { ProbeDetail, Signature, Visit } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, ReadyMonitor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { canonicalJson } from './content.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;
let monitor: ReadyMonitor;
let minute = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  const unit = await t.unit();
  const other = await t.unit();
  doctor = await t.readyDoctor(unit.id);
  stranger = await t.readyDoctor(other.id);
  monitor = await t.readyMonitor([unit.id]);
});
afterAll(() => t?.close());

/** A visit of today written straight into the table, recorded or not. */
async function insertVisit(patientId: number, isDone = true): Promise<number> {
  minute += 2;
  const clock = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
  const [row] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patientId,
        unit_id: doctor.doctor.unit_id,
        doctor_id: doctor.doctor.id,
        date: warsawToday(),
        started_at: clock(minute),
        ended_at: clock(minute + 1),
        is_done: isDone,
        qt: 400,
        rr: 800,
      })
      .returning({ id: visits.id }),
  );
  return row!.id;
}

async function recordedVisit(): Promise<number> {
  const patient = await registerPatient(t, doctor);
  return insertVisit(patient.id);
}

const sign = (
  who: { session: { token: string } },
  body: Record<string, unknown>,
  remoteAddress = '10.1.0.1',
) => t.request('POST', '/api/signatures', { token: who.session.token, body, remoteAddress });

const signVisit = (id: number, who: ReadyDoctor | ReadyAdmin = doctor, meaning = 'author') =>
  sign(who, { record_type: 'visit', record_id: id, meaning, password: who.password });

async function visitSignatures(id: number): Promise<Signature[]> {
  const res = await t.request('GET', '/api/signatures', {
    token: doctor.session.token,
    query: { record_type: 'visit', record_id: String(id) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Signature[] }>().data;
}

describe('POST /api/signatures', () => {
  it('signs a recorded visit: 201, the signer, the meaning, a SHA-256, valid; the detail shows it', async () => {
    const id = await recordedVisit();
    const res = await signVisit(id);
    expect(res.statusCode, res.body).toBe(201);
    const { signature } = res.json<{ signature: Signature }>();
    expect(signature).toMatchObject({
      signer: {
        id: doctor.session.user.id,
        firstname: doctor.doctor.firstname,
        surname: doctor.doctor.surname,
      },
      meaning: 'author',
      status: 'valid',
    });
    expect(signature.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await visitSignatures(id)).toEqual([signature]);
    const detail = await t.request('GET', `/api/visits/${id}`, { token: doctor.session.token });
    expect(detail.json<Visit>().signatures).toEqual([signature]);
  });

  it('the same content gives the same hash; another signer and meaning sign beside', async () => {
    const id = await recordedVisit();
    const first = (await signVisit(id)).json<{ signature: Signature }>().signature;
    const second = await signVisit(id, admin, 'approve');
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json<{ signature: Signature }>().signature.content_hash).toBe(first.content_hash);
    // An administrator has no name of record: the login stands for it.
    expect(second.json<{ signature: Signature }>().signature.signer.surname).toBe(admin.login);
    // The same signer and meaning again: one valid signature is enough.
    const again = await signVisit(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: 'already_signed' });
  });

  it('a change to the signed visit invalidates its signatures, kept and shown as such', async () => {
    const id = await recordedVisit();
    expect((await signVisit(id)).statusCode).toBe(201);
    const visit = (
      await t.request('GET', `/api/visits/${id}`, { token: doctor.session.token })
    ).json<Visit>();
    const res = await t.request('PUT', `/api/visits/${id}/results`, {
      token: doctor.session.token,
      body: {
        isDone: true,
        comment: 'Korekta',
        results: { qt: 410, rr: 800, pq: 160, qrs: 90 },
        version: visit.version,
        reason: { code: 'entry_error' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [signature] = await visitSignatures(id);
    expect(signature).toMatchObject({ status: 'invalidated' });
    expect(signature!.invalidated_at).not.toBeNull();
    // Signed again, the new signature is valid beside the invalidated one.
    expect((await signVisit(id)).statusCode).toBe(201);
    expect((await visitSignatures(id)).map((s) => s.status)).toEqual(['invalidated', 'valid']);
  });

  it('a change made past the API (the database owner by hand) invalidates too', async () => {
    const id = await recordedVisit();
    expect((await signVisit(id)).statusCode).toBe(201);
    await t.db.execute(sql`update visits set qrs = 95 where id = ${id}`);
    expect((await visitSignatures(id))[0]?.status).toBe('invalidated');
  });

  it('a change outside the signed content (the version alone) leaves it valid', async () => {
    const id = await recordedVisit();
    expect((await signVisit(id)).statusCode).toBe(201);
    await t.db.execute(sql`update visits set version = version + 1 where id = ${id}`);
    expect((await visitSignatures(id))[0]?.status).toBe('valid');
  });

  it("signs a sample's results; a changed result invalidates the signature", async () => {
    const patient = await registerPatient(t, doctor);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
      alt: 30,
      results_at: new Date(),
    });
    const res = await sign(doctor, {
      record_type: 'probe',
      record_id: probe.id,
      meaning: 'review',
      password: doctor.password,
    });
    expect(res.statusCode, res.body).toBe(201);
    const before = (
      await t.request('GET', `/api/probes/${probe.id}`, { token: doctor.session.token })
    ).json<ProbeDetail>();
    expect(before.signatures?.map((s) => s.status)).toEqual(['valid']);
    const changed = await t.request('PUT', `/api/probes/${probe.id}/results`, {
      token: doctor.session.token,
      body: { biochemistry_results: { alt: 31 }, reason: { code: 'entry_error' } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = (
      await t.request('GET', `/api/probes/${probe.id}`, { token: doctor.session.token })
    ).json<ProbeDetail>();
    expect(after.signatures?.map((s) => s.status)).toEqual(['invalidated']);
  });

  it('nothing to sign: a visit not recorded, a sample without results (409 not_signable)', async () => {
    const patient = await registerPatient(t, doctor);
    const open = await insertVisit(patient.id, false);
    const res = await signVisit(open);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'not_signable' });
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    const noResults = await sign(doctor, {
      record_type: 'probe',
      record_id: probe.id,
      meaning: 'author',
      password: doctor.password,
    });
    expect(noResults.statusCode).toBe(409);
  });

  it('a wrong password: 422 on password, nothing stored; repeated, throttled like a sign-in (429)', async () => {
    const id = await recordedVisit();
    const wrong = await sign(
      doctor,
      { record_type: 'visit', record_id: id, meaning: 'author', password: 'zle-haslo' },
      '10.9.9.9',
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      status: 'validation_error',
      errors: { password: [expect.any(String)] },
    });
    expect(await visitSignatures(id)).toEqual([]);
    let last = wrong;
    for (let i = 0; i < 6; i += 1) {
      last = await sign(
        doctor,
        { record_type: 'visit', record_id: id, meaning: 'author', password: 'zle-haslo' },
        '10.9.9.9',
      );
    }
    expect(last.statusCode).toBe(429);
    // Locked: even the right password is refused from there, and nothing is stored.
    const locked = await signVisit(id, doctor).then(() =>
      sign(
        doctor,
        { record_type: 'visit', record_id: id, meaning: 'author', password: doctor.password },
        '10.9.9.9',
      ),
    );
    expect(locked.statusCode).toBe(429);
  });

  it("401 without a session; 403 for a monitor; another unit's visit 404", async () => {
    const id = await recordedVisit();
    const body = { record_type: 'visit', record_id: id, meaning: 'author', password: 'x' };
    expect((await t.request('POST', '/api/signatures', { body })).statusCode).toBe(401);
    expect((await sign(monitor, { ...body, password: monitor.password })).statusCode).toBe(403);
    const foreign = await sign(stranger, { ...body, password: stranger.password });
    expect(foreign.statusCode).toBe(404);
    const list = await t.request('GET', '/api/signatures', {
      token: stranger.session.token,
      query: { record_type: 'visit', record_id: String(id) },
    });
    expect(list.statusCode).toBe(404);
    expect(
      (
        await t.request('GET', '/api/signatures', {
          query: { record_type: 'visit', record_id: String(id) },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('bad input: 422 on the fields', async () => {
    const res = await sign(doctor, { record_type: 'patient', record_id: 1, meaning: 'x' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: object }>().errors).sort()).toEqual([
      'meaning',
      'password',
      'record_type',
    ]);
  });

  it('two signatures at once of the same meaning: one 201, one 409 (counts on PostgreSQL)', async () => {
    // PGlite runs one transaction at a time; on PostgreSQL the two race for the unique index.
    const id = await recordedVisit();
    const answers = await Promise.all([signVisit(id), signVisit(id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await visitSignatures(id)).toHaveLength(1);
  });
});

describe('canonical content', () => {
  it('sorts keys at every depth and writes dates in UTC', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: new Date(0) } })).toBe(
      '{"a":{"c":"1970-01-01T00:00:00.000Z","d":[2,{"y":null,"z":1}]},"b":1}',
    );
  });
});
