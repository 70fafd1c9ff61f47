import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, warsawToday } from '@portal/shared';
import type { PatientDetail, PatientUpdateBody } from '@portal/shared';
import pg from 'pg';
import { inTransaction } from '../../db/client.js';
import { probes, visits } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { withStoredVersion } from '../../test/versions.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

/** SQL as the database owner (PostgreSQL: the migration role; PGlite: its one user). */
async function asOwner(statement: string) {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl || !t.databaseName) {
    await t.handle.executeSql(statement);
    return;
  }
  const url = new URL(ownerUrl);
  url.pathname = `/${t.databaseName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const REASON = { code: 'source_correction', text: 'Karta pacjenta, s. 3' } as const;

async function readPatient(id: number): Promise<PatientDetail> {
  const res = await t.request('GET', `/api/patients/${id}`, { token: doctor.session.token });
  expect(res.statusCode).toBe(200);
  return res.json<PatientDetail>();
}

function editOf(patient: PatientDetail, surname: string): PatientUpdateBody {
  return {
    personal: {
      firstname: patient.firstname,
      surname,
      pesel: patient.pesel,
      phone_number: patient.phone_number,
      doctor_id: patient.doctor_id,
      unit_id: patient.unit_id,
    },
    exclusion: {
      is_above_18: patient.is_above_18,
      exclusion_criteria_id: patient.exclusion_criteria_id,
      is_classified: patient.is_classified,
    },
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [],
    additional_medicines: [],
    version: patient.version,
  };
}

interface Entry {
  id: number;
  entity_name: string;
  column_name: string;
  new_value: string | null;
  reason: { code: string; text: string | null } | null;
}

async function auditOf(patientId: number, query: Record<string, string> = {}): Promise<Entry[]> {
  const res = await t.request('GET', '/api/audit_trial', {
    token: admin.session.token,
    query: { patientIds: String(patientId), limit: '100', ...query },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Entry[] }>().data;
}

let slot = 0;
async function pastVisit(patientId: number) {
  slot += 1;
  const clock = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
  const [row] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patientId,
        unit_id: doctor.doctor.unit_id,
        doctor_id: doctor.doctor.id,
        date: addDays(warsawToday(), -2),
        started_at: clock(slot),
        ended_at: clock(slot + 1),
      })
      .returning({ id: visits.id }),
  );
  return row!.id;
}

const recordVisit = async (
  id: number,
  body: Record<string, unknown>,
  token = doctor.session.token,
) =>
  t.request('PUT', `/api/visits/${id}/results`, {
    token,
    body: await withStoredVersion(t.db, visits, id, body),
  });
const saveResults = async (id: number, body: Record<string, unknown>) =>
  t.request('PUT', `/api/probes/${id}/results`, {
    token: doctor.session.token,
    body: await withStoredVersion(t.db, probes, id, body),
  });

const verify = async () => {
  const res = await t.request('GET', '/api/audit_trial/verify', { token: admin.session.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ ok: boolean; checked: number; first_broken_id: number | null }>();
};

describe('reasons for change', () => {
  it('a qualified patient changes only with a reason, written into every entry of the change', async () => {
    const patient = await registerPatient(t, doctor);
    const loaded = await readPatient(patient.id);
    const before = await auditOf(patient.id);

    const without = await t.request('PUT', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
      body: editOf(loaded, 'Bezpowodu'),
    });
    expect(without.statusCode).toBe(422);
    expect(without.json()).toEqual({ status: 'reason_required' });
    expect((await readPatient(patient.id)).surname).toBe('Mazur');
    expect(await auditOf(patient.id)).toEqual(before);

    const other = await t.request('PUT', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
      body: { ...editOf(loaded, 'Inny'), reason: { code: 'other' } },
    });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      status: 'validation_error',
      errors: { 'reason.text': [expect.any(String)] },
    });

    const withReason = await t.request('PUT', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
      body: { ...editOf(loaded, 'Nowak'), reason: REASON },
    });
    expect(withReason.statusCode, withReason.body).toBe(200);
    const changed = (await auditOf(patient.id)).filter((e) => !before.some((b) => b.id === e.id));
    expect(changed.length).toBeGreaterThan(0);
    expect(
      changed.every((e) => e.reason?.code === REASON.code && e.reason.text === REASON.text),
    ).toBe(true);
    expect(changed.some((e) => e.column_name === 'surname' && e.new_value === 'Nowak')).toBe(true);
    // The first entries (the registration) carry none; the filter finds the reasoned ones.
    expect(before.every((e) => e.reason === null)).toBe(true);
    const filtered = await auditOf(patient.id, { reason: 'source_correction' });
    expect(filtered.map((e) => e.id).sort()).toEqual(changed.map((e) => e.id).sort());
    expect(await auditOf(patient.id, { reason: 'entry_error' })).toEqual([]);
  });

  it('a patient not yet qualified is a first entry: no reason needed', async () => {
    const patient = await registerPatient(t, doctor);
    await t.handle.executeSql(`update patients set is_classified = false where id = ${patient.id}`);
    const loaded = await readPatient(patient.id);
    const res = await t.request('PUT', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
      body: editOf(loaded, 'Pierwszy'),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a recorded visit and a sample with results change only with a reason', async () => {
    const patient = await registerPatient(t, doctor);
    const visitId = await pastVisit(patient.id);
    const first = await recordVisit(visitId, {
      isDone: true,
      results: { qt: 400, rr: 1000, pq: 160, qrs: 90 },
    });
    expect(first.statusCode, first.body).toBe(200);
    const again = await recordVisit(visitId, {
      isDone: true,
      results: { qt: 410, rr: 1000, pq: 160, qrs: 90 },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ status: 'reason_required' });
    const fixed = await recordVisit(visitId, {
      isDone: true,
      results: { qt: 410, rr: 1000, pq: 160, qrs: 90 },
      reason: { code: 'entry_error' },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const qt = (await auditOf(patient.id)).filter(
      (e) => e.entity_name === 'visits' && e.column_name === 'qt',
    );
    expect(qt.map((e) => e.reason?.code ?? null)).toEqual(['entry_error', null]);

    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    const entered = await saveResults(probe.id, { biochemistry_results: { alt: 20 } });
    expect(entered.statusCode, entered.body).toBe(200);
    const changed = await saveResults(probe.id, { biochemistry_results: { alt: 25 } });
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({ status: 'reason_required' });
    const corrected = await saveResults(probe.id, {
      biochemistry_results: { alt: 25 },
      reason: { code: 'query_response' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
  });
});

describe('record locks', () => {
  it('answer 401, 403 to a doctor, 404 for a missing record, and 422 for a bad body', async () => {
    const body = { record_type: 'visit', record_id: 1 };
    expect((await t.request('POST', '/api/records/lock', { body })).statusCode).toBe(401);
    expect(
      (await t.request('POST', '/api/records/lock', { token: doctor.session.token, body }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.request('POST', '/api/records/unlock', { token: otherDoctor.session.token, body }))
        .statusCode,
    ).toBe(403);
    const missing = await t.request('POST', '/api/records/lock', {
      token: admin.session.token,
      body: { record_type: 'probe', record_id: 999_999 },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.request('POST', '/api/records/lock', {
      token: admin.session.token,
      body: { record_type: 'patient', record_id: 1 },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('a locked visit refuses every change with 409 record_locked until unlocked with a reason', async () => {
    const patient = await registerPatient(t, doctor);
    const visitId = await pastVisit(patient.id);
    expect((await recordVisit(visitId, { isDone: true })).statusCode).toBe(200);
    const lockBody = { record_type: 'visit', record_id: visitId };
    // Not signed yet: nothing to lock (ADR 048).
    const unsigned = await t.request('POST', '/api/records/lock', {
      token: admin.session.token,
      body: lockBody,
    });
    expect(unsigned.statusCode).toBe(409);
    expect(unsigned.json()).toEqual({ status: 'not_signed' });
    const signed = await t.request('POST', '/api/signatures', {
      token: doctor.session.token,
      body: { ...lockBody, meaning: 'author', password: doctor.password },
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const lock = await t.request('POST', '/api/records/lock', {
      token: admin.session.token,
      body: lockBody,
    });
    expect(lock.statusCode, lock.body).toBe(200);
    expect(lock.json()).toMatchObject({
      locked: true,
      lock: { by: { id: admin.session.user.id } },
    });

    const refused = await recordVisit(visitId, { isDone: false, reason: REASON });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ status: 'record_locked' });
    const notes = await t.request('PUT', `/api/visits/${visitId}/notes`, {
      token: doctor.session.token,
      body: await withStoredVersion(t.db, visits, visitId, { notes: '<p>x</p>' }),
    });
    expect(notes.statusCode).toBe(409);
    expect(
      (await t.request('GET', `/api/visits/${visitId}`, { token: doctor.session.token })).json(),
    ).toMatchObject({ isDone: true });

    const noReason = await t.request('POST', '/api/records/unlock', {
      token: admin.session.token,
      body: { record_type: 'visit', record_id: visitId },
    });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json()).toEqual({ status: 'reason_required' });
    const unlock = await t.request('POST', '/api/records/unlock', {
      token: admin.session.token,
      body: { record_type: 'visit', record_id: visitId, reason: REASON },
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    expect(unlock.json()).toMatchObject({ locked: false, lock: null });
    expect((await recordVisit(visitId, { isDone: false, reason: REASON })).statusCode).toBe(200);
    const lockEntries = (await auditOf(patient.id)).filter((e) => e.entity_name === 'record_locks');
    expect(lockEntries.some((e) => e.reason?.code === REASON.code)).toBe(true);
  });
});

describe('record details: the lock and what the user may do with it', () => {
  it('a visit and a sample answer lock and record_abilities for the doctor and the administrator', async () => {
    const patient = await registerPatient(t, doctor);
    const visitId = await pastVisit(patient.id);
    const probe = await insertProbe(t.db, doctor.session.user.id, patient.id);
    const detail = async (path: string, token: string) => {
      const res = await t.request('GET', path, { token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ lock: unknown; record_abilities: Record<string, boolean> }>();
    };
    const visitPath = `/api/visits/${visitId}`;
    const probePath = `/api/probes/${probe.id}`;
    // Nothing entered yet: nothing to sign, nothing to lock.
    for (const path of [visitPath, probePath]) {
      expect(await detail(path, doctor.session.token)).toMatchObject({
        lock: null,
        record_abilities: { sign: false, lock: false, unlock: false, verify: false },
      });
    }
    expect((await recordVisit(visitId, { isDone: true })).statusCode).toBe(200);
    expect((await saveResults(probe.id, { biochemistry_results: { alt: 20 } })).statusCode).toBe(
      200,
    );
    for (const path of [visitPath, probePath]) {
      expect((await detail(path, doctor.session.token)).record_abilities).toEqual({
        sign: true,
        lock: false,
        unlock: false,
        verify: false,
      });
      // Signed by nobody yet: the administrator may sign, not lock.
      expect((await detail(path, admin.session.token)).record_abilities).toEqual({
        sign: true,
        lock: false,
        unlock: false,
        verify: false,
      });
    }
    for (const [type, id] of [
      ['visit', visitId],
      ['probe', probe.id],
    ] as const) {
      const signed = await t.request('POST', '/api/signatures', {
        token: doctor.session.token,
        body: { record_type: type, record_id: id, meaning: 'author', password: doctor.password },
      });
      expect(signed.statusCode, signed.body).toBe(201);
    }
    for (const path of [visitPath, probePath]) {
      expect((await detail(path, doctor.session.token)).record_abilities.lock).toBe(false);
      expect((await detail(path, admin.session.token)).record_abilities).toEqual({
        sign: true,
        lock: true,
        unlock: false,
        verify: false,
      });
    }
    const locked = await t.request('POST', '/api/records/lock', {
      token: admin.session.token,
      body: { record_type: 'probe', record_id: probe.id },
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(await detail(probePath, admin.session.token)).toMatchObject({
      lock: { by: { id: admin.session.user.id, login: admin.session.user.login } },
      record_abilities: { lock: false, unlock: true },
    });
    expect((await detail(probePath, doctor.session.token)).lock).not.toBeNull();
    expect((await detail(visitPath, doctor.session.token)).lock).toBeNull();
    // Another unit's doctor still reaches neither.
    const other = await t.request('GET', visitPath, { token: otherDoctor.session.token });
    expect(other.statusCode).toBe(404);

    // A monitor of the unit: verify only (ADR 051), and the server accepts what it is told,
    // a locked record included (a mark is not a change of the record).
    const monitor = await t.readyMonitor([doctor.doctor.unit_id]);
    for (const [type, id, path] of [
      ['visit', visitId, visitPath],
      ['probe', probe.id, probePath],
    ] as const) {
      const abilities = (await detail(path, monitor.session.token)).record_abilities;
      expect(abilities).toEqual({ sign: false, lock: false, unlock: false, verify: true });
      const marked = await t.request('POST', '/api/verifications', {
        token: monitor.session.token,
        body: { record_type: type, record_id: id },
      });
      expect(marked.statusCode, marked.body).toBe(201);
      // A doctor is told no, and refused.
      const refused = await t.request('POST', '/api/verifications', {
        token: doctor.session.token,
        body: { record_type: type, record_id: id },
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});

describe('study lock', () => {
  it('makes every write 409 study_locked, reads and sign-in still work, unlock needs a reason', async () => {
    expect((await t.request('GET', '/api/study/lock')).statusCode).toBe(401);
    expect(
      (await t.request('POST', '/api/study/lock', { token: doctor.session.token, body: {} }))
        .statusCode,
    ).toBe(403);
    const initial = await t.request('GET', '/api/study/lock', { token: doctor.session.token });
    expect(initial.json()).toEqual({ locked: false, locked_at: null, by: null });

    const patient = await registerPatient(t, doctor);
    const locked = await t.request('POST', '/api/study/lock', {
      token: admin.session.token,
      body: {},
    });
    expect(locked.statusCode, locked.body).toBe(200);
    try {
      const state = await t.request('GET', '/api/study/lock', { token: doctor.session.token });
      expect(state.json()).toMatchObject({ locked: true, by: { id: admin.session.user.id } });
      const loaded = await readPatient(patient.id);
      const write = await t.request('PUT', `/api/patients/${patient.id}`, {
        token: doctor.session.token,
        body: { ...editOf(loaded, 'Zablokowany'), reason: REASON },
      });
      expect(write.statusCode).toBe(409);
      expect(write.json()).toEqual({ status: 'study_locked' });
      const adminWrite = await t.request('POST', '/api/units', {
        token: admin.session.token,
        body: { name: 'Nowa' },
      });
      expect(adminWrite.statusCode).toBe(409);
      expect((await readPatient(patient.id)).surname).toBe('Mazur');
      // Signing in is not a write of study data.
      const login = await t.request('POST', '/api/auth/login/admin', {
        body: { login: admin.login, password: admin.password },
      });
      expect(login.statusCode).toBe(200);
      const noReason = await t.request('POST', '/api/study/unlock', {
        token: admin.session.token,
        body: {},
      });
      expect(noReason.statusCode).toBe(422);
      expect(noReason.json()).toEqual({ status: 'reason_required' });
    } finally {
      const unlocked = await t.request('POST', '/api/study/unlock', {
        token: admin.session.token,
        body: { reason: { code: 'other', text: 'Koniec przeglądu' } },
      });
      expect(unlocked.statusCode, unlocked.body).toBe(200);
    }
    expect(
      (await t.request('GET', '/api/study/lock', { token: doctor.session.token })).json(),
    ).toMatchObject({ locked: false });
  });
});

describe('the audit hash chain', () => {
  it('verify: 401, 403, then ok; an entry changed by the owner is named; the app cannot change entries', async () => {
    expect((await t.request('GET', '/api/audit_trial/verify')).statusCode).toBe(401);
    expect(
      (await t.request('GET', '/api/audit_trial/verify', { token: doctor.session.token }))
        .statusCode,
    ).toBe(403);
    const patient = await registerPatient(t, doctor);
    const good = await verify();
    expect(good).toMatchObject({ ok: true, first_broken_id: null });
    expect(good.checked).toBeGreaterThan(10);

    if (onPostgres) {
      // The app's role may not change the trail at all.
      await expect(
        t.handle.executeSql('update audit_entries set new_value = $1 where patient_id = $2', [
          'x',
          patient.id,
        ]),
      ).rejects.toThrow();
      await expect(
        t.handle.executeSql('delete from audit_entries where patient_id = $1', [patient.id]),
      ).rejects.toThrow();
    }
    const target = (await auditOf(patient.id)).at(-1)!;
    await asOwner(`alter table audit_entries disable trigger user;
      update audit_entries set new_value = 'Podrobiony' where id = ${target.id};
      alter table audit_entries enable trigger user`);
    const broken = await verify();
    expect(broken).toMatchObject({ ok: false, first_broken_id: target.id });
    // Put back: the chain holds again.
    await asOwner(`alter table audit_entries disable trigger user;
      update audit_entries set new_value = ${target.new_value === null ? 'null' : `'${target.new_value.replaceAll("'", "''")}'`} where id = ${target.id};
      alter table audit_entries enable trigger user`);
    expect((await verify()).ok).toBe(true);
    // A redacted value (blanked, its digest kept) keeps the chain.
    await asOwner(`alter table audit_entries disable trigger user;
      update audit_entries set new_value = null where id = ${target.id};
      alter table audit_entries enable trigger user`);
    expect((await verify()).ok).toBe(true);
  });

  it('exports the filtered trail as CSV (formula cells made safe) and PDF, administrators only', async () => {
    const patient = await registerPatient(t, doctor);
    const loaded = await readPatient(patient.id);
    await t.request('PUT', `/api/patients/${patient.id}`, {
      token: doctor.session.token,
      body: { ...editOf(loaded, 'Eksportowy'), reason: { code: 'other', text: '=HYPERLINK("x")' } },
    });
    const query = { patientIds: String(patient.id) };
    expect((await t.request('GET', '/api/audit_trial/export.csv', { query })).statusCode).toBe(401);
    expect(
      (
        await t.request('GET', '/api/audit_trial/export.csv', {
          token: doctor.session.token,
          query,
        })
      ).statusCode,
    ).toBe(403);
    const csv = await t.request('GET', '/api/audit_trial/export.csv', {
      token: admin.session.token,
      query,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Id,Data i godzina,Użytkownik,Pacjent,Rekord,Pole,Operacja,Stara wartość,Nowa wartość,Powód zmiany',
    );
    const surname = lines.find((line) => line.includes(',surname,'));
    expect(surname).toContain('Mazur');
    expect(surname).toContain('Eksportowy');
    // The reason's text began with "=": written as text, never as a formula.
    expect(surname).toContain(`"Inny: =HYPERLINK(""x"")"`);
    expect(lines.every((line) => !/(^|,)=/.test(line))).toBe(true);
    const registration = lines.filter((line) => line.includes('Dodanie'));
    expect(registration.length).toBeGreaterThan(0);

    const pdf = await t.request('GET', '/api/audit_trial/export.pdf', {
      token: admin.session.token,
      query,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it.runIf(onPostgres)('stays whole under 20 parallel patient edits (PostgreSQL)', async () => {
    const patients = await Promise.all(Array.from({ length: 4 }, () => registerPatient(t, doctor)));
    const edits = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const patient = patients[i % patients.length]!;
        for (;;) {
          const loaded = await readPatient(patient.id);
          const res = await t.request('PUT', `/api/patients/${patient.id}`, {
            token: doctor.session.token,
            body: { ...editOf(loaded, `Rownolegly${i}`), reason: REASON },
          });
          if (res.statusCode !== 409) return res.statusCode;
        }
      }),
    );
    expect(edits.every((code) => code === 200)).toBe(true);
    expect(await verify()).toMatchObject({ ok: true, first_broken_id: null });
  });

  it('names the entry after a removed one', async () => {
    const patient = await registerPatient(t, doctor);
    const entries = (await auditOf(patient.id)).map((e) => e.id).sort((a, b) => a - b);
    const [, removed, next] = entries;
    await asOwner(`alter table audit_entries disable trigger user;
      delete from audit_entries where id = ${removed};
      alter table audit_entries enable trigger user`);
    const result = await verify();
    expect(result).toMatchObject({ ok: false, first_broken_id: next });
  });
});
