import type { AccessLogEntry, AccessLogList, PatientIdentity } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';

/**
 * The read-access log (ADR 052) and identity masking (ADR 053), on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL as the app's restricted role.
 */
let t: TestApp;
let admin: ReadyAdmin;
let iod: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let patientId: number;
let pesel: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  iod = await t.readyIod();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  const registered = await registerPatient(t, doctor);
  patientId = registered.id;
  const card = await t.request('GET', `/api/patients/${patientId}`, { token: admin.session.token });
  pesel = card.json<{ pesel: string }>().pesel;
});

afterAll(() => t?.close());

/** The newest entries of a user, as the IOD reads them. */
async function entriesOf(userId: number, limit = 5): Promise<AccessLogEntry[]> {
  const res = await t.request('GET', '/api/access_log', {
    token: iod.session.token,
    query: { userIds: String(userId), limit: String(limit) },
  });
  expect(res.statusCode).toBe(200);
  return res.json<AccessLogList>().data;
}

async function newestOf(userId: number): Promise<AccessLogEntry | undefined> {
  return (await entriesOf(userId, 1))[0];
}

/** PDF magic and a trailer: enough for the content check. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = '----read-log-boundary';
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    body: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('one entry per read of identified data', () => {
  it.each([
    ['the card', 'patient_card', () => `/api/patients/${patientId}`],
    ['the header (basic)', 'patient_tab', () => `/api/patients/${patientId}/basic`],
    ['the visits tab', 'patient_tab', () => `/api/patients/${patientId}/visits`],
    ['the notes tab', 'patient_tab', () => `/api/patients/notes?ref_id=${patientId}`],
    ['the samples tab', 'patient_tab', () => `/api/patients/${patientId}/probes`],
    ['the files tab', 'patient_tab', () => `/api/files?ref_type=patient&ref_id=${patientId}`],
    ['the kit orders tab', 'patient_tab', () => `/api/probe-sets/patient-sets/${patientId}`],
    ['the printed credentials', 'credentials', () => `/api/patients/print_password/${patientId}`],
    ['the revealed identity', 'identity', () => `/api/patients/${patientId}/identity`],
  ])('%s: kind %s with the patient, the user and the address', async (_, kind, url) => {
    const res = await t.request('GET', url(), {
      token: doctor.session.token,
      remoteAddress: '10.1.2.3',
    });
    expect(res.statusCode).toBe(200);
    const entry = await newestOf(doctor.session.user.id);
    expect(entry).toMatchObject({
      kind,
      patient_ids: [patientId],
      address: '10.1.2.3',
      user: {
        id: doctor.session.user.id,
        login: doctor.login,
        firstname: 'Jan',
        role: 'doctor',
      },
    });
    expect(Date.now() - new Date(entry!.at).getTime()).toBeLessThan(60_000);
  });

  it("the printed credential sheet of a patient: kind credentials, the login's patient", async () => {
    const printed = await registerPatient(t, doctor, { surname: 'Drukowana' });
    const sheet = (body: Record<string, string>) =>
      t.request('POST', '/api/credentials/pdf', {
        token: doctor.session.token,
        remoteAddress: '10.1.2.4',
        body: { password: 'Tymczasowe-1', ...body },
      });
    const res = await sheet({ kind: 'patient', login: printed.login.toUpperCase(), name: 'X' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const entry = await newestOf(doctor.session.user.id);
    expect(entry).toMatchObject({
      kind: 'credentials',
      patient_ids: [printed.id],
      address: '10.1.2.4',
    });
    // A doctor's sheet, or a login that is no patient's, shows no patient: no entry.
    expect((await sheet({ kind: 'doctor', login: doctor.login })).statusCode).toBe(200);
    expect((await sheet({ kind: 'patient', login: 'nikt-taki' })).statusCode).toBe(200);
    expect((await newestOf(doctor.session.user.id))!.id).toBe(entry!.id);
  });

  it('a list logs one entry with every patient it showed, a search with its matches', async () => {
    const second = await registerPatient(t, doctor, { surname: 'Zielińska' });
    const list = await t.request('GET', '/api/patients', {
      token: doctor.session.token,
      query: { limit: '100' },
    });
    const shown = list.json<{ data: { id: number }[] }>().data.map((row) => row.id);
    expect(shown).toEqual(expect.arrayContaining([patientId, second.id]));
    const entries = await entriesOf(doctor.session.user.id, 2);
    expect(entries[0]).toMatchObject({ kind: 'search' });
    expect(entries[0]!.patient_ids).toEqual([...shown].sort((a, b) => a - b));
    // Not two entries for one request.
    expect(entries[1]!.kind).not.toBe('search');

    await t.request('GET', '/api/patients/options', {
      token: doctor.session.token,
      query: { search: 'Zielińska' },
    });
    expect(await newestOf(doctor.session.user.id)).toMatchObject({
      kind: 'search',
      patient_ids: [second.id],
    });
  });

  it('a search that shows nobody and a list of another unit log nothing', async () => {
    const before = await newestOf(doctor.session.user.id);
    const none = await t.request('GET', '/api/patients', {
      token: doctor.session.token,
      query: { search: 'NikogoTakiegoNieMa' },
    });
    expect(none.statusCode).toBe(200);
    expect((await newestOf(doctor.session.user.id))!.id).toBe(before!.id);
  });

  it('a sample, a downloaded file and the audit trail', async () => {
    const probe = await insertProbe(t.db, admin.session.user.id, patientId);
    expect(
      (await t.request('GET', `/api/probes/${probe.id}`, { token: doctor.session.token }))
        .statusCode,
    ).toBe(200);
    expect(await newestOf(doctor.session.user.id)).toMatchObject({
      kind: 'probe',
      patient_ids: [patientId],
    });

    const { body, headers } = multipart(
      { ref_type: 'patient', ref_id: String(patientId), comment: '' },
      { name: 'wynik.pdf', content: PDF },
    );
    const uploaded = await t.request('POST', '/api/files', {
      token: doctor.session.token,
      body,
      headers,
    });
    expect(uploaded.statusCode).toBe(200);
    const files = await t.request('GET', '/api/files', {
      token: doctor.session.token,
      query: { ref_type: 'patient', ref_id: String(patientId) },
    });
    const fileId = files.json<{ data: { id: number }[] }>().data[0]!.id;
    const download = await t.request('GET', `/api/files/${fileId}`, {
      token: doctor.session.token,
    });
    expect(download.statusCode).toBe(200);
    expect(await newestOf(doctor.session.user.id)).toMatchObject({
      kind: 'file',
      patient_ids: [patientId],
    });

    const audit = await t.request('GET', '/api/audit_trial', {
      token: admin.session.token,
      query: { patientIds: String(patientId) },
    });
    expect(audit.statusCode).toBe(200);
    expect(await newestOf(admin.session.user.id)).toMatchObject({
      kind: 'audit',
      patient_ids: [patientId],
    });
  });

  it('a refused read (another unit: 404) leaves no entry', async () => {
    const before = await newestOf(otherDoctor.session.user.id);
    const res = await t.request('GET', `/api/patients/${patientId}`, {
      token: otherDoctor.session.token,
    });
    expect(res.statusCode).toBe(404);
    const identity = await t.request('GET', `/api/patients/${patientId}/identity`, {
      token: otherDoctor.session.token,
    });
    expect(identity.statusCode).toBe(404);
    expect(await newestOf(otherDoctor.session.user.id)).toEqual(before);
  });
});

describe('GET /api/access_log', () => {
  it('answers 401 without a token and 403 to a doctor', async () => {
    expect((await t.request('GET', '/api/access_log')).statusCode).toBe(401);
    const res = await t.request('GET', '/api/access_log', { token: doctor.session.token });
    expect(res.statusCode).toBe(403);
    // A doctor asking for another unit's patients' log is refused the same way.
    const other = await t.request('GET', '/api/access_log', {
      token: otherDoctor.session.token,
      query: { patientIds: String(patientId) },
    });
    expect(other.statusCode).toBe(403);
  });

  it('answers administrators and the IOD; filters by patient, user and date range', async () => {
    await t.request('GET', `/api/patients/${patientId}`, { token: admin.session.token });
    for (const token of [admin.session.token, iod.session.token]) {
      const res = await t.request('GET', '/api/access_log', {
        token,
        query: { patientIds: String(patientId) },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<AccessLogList>();
      expect(body.total_kind).toBe('exact');
      expect(body.data.length).toBeGreaterThan(0);
      for (const entry of body.data) expect(entry.patient_ids).toContain(patientId);
      const users = new Set(body.data.map((entry) => entry.user.id));
      expect(users).toContain(doctor.session.user.id);
      expect(users).toContain(admin.session.user.id);
    }
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await t.request('GET', '/api/access_log', {
      token: iod.session.token,
      query: { from: tomorrow },
    });
    expect(future.json<AccessLogList>()).toEqual({ data: [], total: 0, total_kind: 'exact' });
    const today = await t.request('GET', '/api/access_log', {
      token: iod.session.token,
      query: { from: new Date(Date.now() - 3_600_000).toISOString(), to: tomorrow },
    });
    expect(today.json<AccessLogList>().total).toBeGreaterThan(0);
    const bad = await t.request('GET', '/api/access_log', {
      token: iod.session.token,
      query: { from: 'wczoraj' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('pages by key: after and before give the pages that page gives', async () => {
    const query = { userIds: String(doctor.session.user.id), limit: '3' };
    const page = async (extra: Record<string, string>) =>
      (
        await t.request('GET', '/api/access_log', {
          token: iod.session.token,
          query: { ...query, ...extra },
        })
      )
        .json<AccessLogList>()
        .data.map((entry) => entry.id);
    const first = await page({ page: '1' });
    const second = await page({ page: '2' });
    const third = await page({ page: '3' });
    expect(second).toHaveLength(3);
    expect(await page({ after: String(first.at(-1)) })).toEqual(second);
    expect(await page({ after: String(second.at(-1)) })).toEqual(third);
    expect(await page({ before: String(third[0]) })).toEqual(second);
  });
});

describe('the log is append-only for the app', () => {
  it('refuses to change or remove an entry', async () => {
    const entry = await newestOf(doctor.session.user.id);
    await expect(
      t.handle.executeSql(`update access_log set address = '1.1.1.1' where id = ${entry!.id}`),
    ).rejects.toThrow();
    await expect(
      t.handle.executeSql(`delete from access_log where id = ${entry!.id}`),
    ).rejects.toThrow();
    await expect(t.handle.executeSql('truncate access_log')).rejects.toThrow();
    expect(await newestOf(doctor.session.user.id)).toEqual(entry);
  });
});

describe('PESEL and contacts (ADR 053)', () => {
  it('the identity call answers PESEL, e-mail and phone; the card and lists agree', async () => {
    const res = await t.request('GET', `/api/patients/${patientId}/identity`, {
      token: admin.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const identity = res.json<PatientIdentity>();
    expect(identity).toEqual({ pesel, email: null, phone_number: expect.any(String) as string });
    expect(pesel).toMatch(/^\d{11}$/);
  });

  it('the IOD reveals an identity of any unit but reads no patient data otherwise', async () => {
    const res = await t.request('GET', `/api/patients/${patientId}/identity`, {
      token: iod.session.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<PatientIdentity>().pesel).toBe(pesel);
    expect(await newestOf(iod.session.user.id)).toMatchObject({
      kind: 'identity',
      patient_ids: [patientId],
    });
    for (const url of [`/api/patients/${patientId}`, '/api/patients', '/api/visits']) {
      expect((await t.request('GET', url, { token: iod.session.token })).statusCode).toBe(403);
    }
    const write = await t.request('DELETE', `/api/patients/${patientId}`, {
      token: iod.session.token,
    });
    expect(write.statusCode).toBe(403);
    expect(
      (await t.request('GET', '/api/audit_trial', { token: iod.session.token })).statusCode,
    ).toBe(200);
  });

  it('administrators and doctors hold patients.identity.read: PESEL in clear in lists', async () => {
    for (const session of [admin.session, doctor.session]) {
      expect(session.user.permissions).toContain('patients.identity.read');
      const list = await t.request('GET', '/api/patients', {
        token: session.token,
        query: { search: pesel },
      });
      expect(list.json<{ data: { pesel: string }[] }>().data[0]!.pesel).toBe(pesel);
    }
  });
});

describe('the bench switch (readLogWrites: false)', () => {
  it('leaves reads unlogged only in an app built so; the default app logs them', async () => {
    const unlogged = await createTestApp({ readLogWrites: false });
    try {
      const reader = await unlogged.readyAdmin();
      const officer = await unlogged.readyIod();
      const own = await unlogged.readyDoctor((await unlogged.unit()).id);
      const patient = await registerPatient(unlogged, own);
      const card = await unlogged.request('GET', `/api/patients/${patient.id}`, {
        token: reader.session.token,
      });
      expect(card.statusCode).toBe(200);
      const log = await unlogged.request('GET', '/api/access_log', {
        token: officer.session.token,
        query: { userIds: String(reader.session.user.id) },
      });
      expect(log.statusCode).toBe(200);
      expect(log.json<AccessLogList>().data).toEqual([]);
    } finally {
      await unlogged.close();
    }
    // The same read in the app every other test uses leaves its entry.
    await t.request('GET', `/api/patients/${patientId}`, { token: admin.session.token });
    expect(await newestOf(admin.session.user.id)).toMatchObject({
      kind: 'patient_card',
      patient_ids: [patientId],
    });
  });
});
