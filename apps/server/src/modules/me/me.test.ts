import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeProfile, ProbeSetSaved, Visit } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import {
  auditEntries,
  files,
  globalMessageReads,
  globalMessages,
  messages,
  probeSetKits,
  probeSets,
  sessions,
  visits,
} from '../../db/schema.js';
import { tokenDigest } from '../../lib/tokens.js';
import { CHOSEN_PASSWORD, createTestApp, refreshCookieOf } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient, registerPatient } from '../../test/patients-fixture.js';
import type { ReadyPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctorA: ReadyDoctor;
let doctorB: ReadyDoctor;
/** One patient in unit A, one in unit B: each may see only the own data. */
let anna: ReadyPatient;
let bartek: ReadyPatient;

const me = (patient: ReadyPatient, url: string, options: { body?: unknown } = {}) =>
  t.request(options.body === undefined ? 'GET' : 'POST', `/api/me${url}`, {
    token: patient.session.token,
    ...options,
  });

const order = {
  amount: 2,
  labels_amount: 3,
  street: 'Długa',
  building: '5',
  postcode: '00-001',
  city: 'Łódź',
};

/** A file row written directly: the panels' upload belongs to the documents feature. */
async function insertFile(
  refType: string,
  name: string,
  patientId: number | null = null,
): Promise<number> {
  const [row] = await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx
      .insert(files)
      .values({
        ref_type: refType,
        ref_id: patientId ?? 0,
        patient_id: patientId,
        original_name: name,
        mime_type: 'text/plain',
        size_bytes: 7,
        content: Buffer.from('Zalecen'),
        uploaded_by: admin.session.user.id,
      })
      .returning({ id: files.id }),
  );
  return row!.id;
}

async function insertVisit(patientId: number, unitId: number, date: string): Promise<number> {
  const [row] = await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patientId,
        unit_id: unitId,
        date,
        started_at: '10:00',
        ended_at: '10:30',
      })
      .returning({ id: visits.id }),
  );
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctorA = await t.readyDoctor((await t.unit()).id, { firstname: 'Ewa', surname: 'Lekarska' });
  doctorB = await t.readyDoctor((await t.unit()).id);
  anna = await readyPatient(t, doctorA, { firstname: 'Anna', surname: 'Kowalska' });
  bartek = await readyPatient(t, doctorB, { firstname: 'Bartek', surname: 'Nowak' });
});

afterAll(async () => {
  await t.close();
});

describe('POST /api/auth/login/patient', () => {
  it('signs a patient in with the printed login and answers the staff login shape', async () => {
    const res = await t.request('POST', '/api/auth/login/patient', {
      body: { login: anna.login.toUpperCase(), password: CHOSEN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; user: Record<string, unknown> }>();
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      id: anna.userId,
      login: anna.login,
      role: 'patient',
      doctor_id: null,
      firstname: 'Anna',
      surname: 'Kowalska',
      unit_id: doctorA.doctor.unit_id,
      patient_id: anna.id,
      permissions: ['patient.self'],
    });
    expect(refreshCookieOf(res)).not.toBe('');
  });

  it('answers the same 401 to a wrong password, a staff login and an unknown login', async () => {
    const answers = await Promise.all(
      [
        { login: anna.login, password: 'zle-haslo-123' },
        { login: doctorA.login, password: doctorA.password },
        { login: admin.login, password: admin.password },
        { login: 'pac000000x', password: CHOSEN_PASSWORD },
      ].map((body, i) =>
        t.request('POST', '/api/auth/login/patient', { body, remoteAddress: `10.9.0.${i + 1}` }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'invalid_credentials', error: 'Invalid credentials' });
    }
  });

  it('does not let a patient sign in on the staff endpoints', async () => {
    for (const role of ['admin', 'doctor']) {
      const res = await t.request('POST', `/api/auth/login/${role}`, {
        body: { login: anna.login, password: CHOSEN_PASSWORD },
        remoteAddress: '10.9.1.1',
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('locks a patient login after 5 failures from one address, like staff logins', async () => {
    const patient = await registerPatient(t, doctorA, { surname: 'Zamkowa' });
    const attempt = (password: string) =>
      t.request('POST', '/api/auth/login/patient', {
        body: { login: patient.login, password },
        remoteAddress: '10.9.2.1',
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`zle-haslo-${i}`)).statusCode).toBe(401);
    const locked = await attempt(patient.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ status: 'too_many_attempts' });
  });

  it('requires the printed password to be changed before any /api/me call', async () => {
    const patient = await registerPatient(t, doctorA, { surname: 'Nowicka' });
    const first = await t.login('patient', patient.login, patient.password);
    expect(first.user.changed_password_at).toBeNull();
    for (const url of ['', '/messages', '/announcements', '/documents', '/visits', '/probes']) {
      const res = await t.request('GET', `/api/me${url}`, { token: first.token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ status: 'password_change_required' });
    }
    const order = await t.request('POST', '/api/me/probe-sets', { token: first.token, body: {} });
    expect(order.json()).toEqual({ status: 'password_change_required' });
    const changed = await t.changePassword(first, patient.password);
    expect(changed.user.role).toBe('patient');
    // The earlier session ended with the change; the new one works.
    expect((await t.request('GET', '/api/me', { token: first.token })).statusCode).toBe(401);
    const res = await t.request('GET', '/api/me', { token: changed.token });
    expect(res.statusCode).toBe(200);
    expect(res.json<MeProfile>().id).toBe(patient.id);
  });

  it('refreshes and signs a patient out', async () => {
    const session = await t.login('patient', anna.login, CHOSEN_PASSWORD);
    const refreshed = await t.request('POST', '/api/auth/refresh', {
      cookies: { portal_refresh: session.refreshCookie },
    });
    expect(refreshed.statusCode).toBe(200);
    const body = refreshed.json<{ access_token: string; user: { role: string } }>();
    expect(body.user.role).toBe('patient');
    const valid = await t.request('GET', '/api/auth/validate_token/patient', {
      token: body.access_token,
    });
    expect(valid.statusCode).toBe(200);
    expect(
      (await t.request('GET', '/api/auth/validate_token/doctor', { token: body.access_token }))
        .statusCode,
    ).toBe(401);
    // Logging out ends every session of the patient: a fresh one for the shared fixture after.
    const out = await t.request('POST', '/api/auth/logout', { token: body.access_token });
    expect(out.statusCode).toBe(200);
    expect((await me(anna, '')).statusCode).toBe(401);
    anna = { ...anna, session: await t.login('patient', anna.login, CHOSEN_PASSWORD) };
    expect((await me(anna, '')).statusCode).toBe(200);
  });

  it("refuses a deleted patient's login and ends the open sessions at once", async () => {
    const patient = await readyPatient(t, doctorA, { surname: 'Usunięta' });
    expect((await me(patient, '')).statusCode).toBe(200);
    const deleted = await t.request('DELETE', `/api/patients/${patient.id}`, {
      token: doctorA.session.token,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await me(patient, '')).statusCode).toBe(401);
    const res = await t.request('POST', '/api/auth/login/patient', {
      body: { login: patient.login, password: CHOSEN_PASSWORD },
      remoteAddress: '10.9.3.1',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 'invalid_credentials', error: 'Invalid credentials' });
    // Restored, the patient signs in again.
    await t.request('PUT', `/api/patients/restore/${patient.id}`, {
      token: doctorA.session.token,
    });
    expect((await t.login('patient', patient.login, CHOSEN_PASSWORD)).user.patient_id).toBe(
      patient.id,
    );
  });
});

describe('new printed login details', () => {
  it("end the patient's sessions and must be changed again before /api/me", async () => {
    const patient = await readyPatient(t, doctorA, { surname: 'Zapominalska' });
    const printed = await t.request('GET', `/api/patients/print_password/${patient.id}`, {
      token: doctorA.session.token,
    });
    expect(printed.statusCode).toBe(200);
    const { password } = printed.json<{ login: string; password: string }>();
    expect((await me(patient, '')).statusCode).toBe(401);
    const res = await t.request('POST', '/api/auth/login/patient', {
      body: { login: patient.login, password: CHOSEN_PASSWORD },
      remoteAddress: '10.9.4.1',
    });
    expect(res.statusCode).toBe(401);
    const fresh = await t.login('patient', patient.login, password);
    const blocked = await t.request('GET', '/api/me', { token: fresh.token });
    expect(blocked.json()).toEqual({ status: 'password_change_required' });
  });
});

describe('a patient token on staff endpoints', () => {
  it('gets 403 on staff routes, even aimed at the own record', async () => {
    for (const url of [
      `/api/patients/${anna.id}`,
      `/api/patients/${anna.id}/visits`,
      `/api/notifications?user_id=${anna.userId}`,
      '/api/patients',
      '/api/probes',
      '/api/settings/phone',
    ]) {
      const res = await t.request('GET', url, { token: anna.session.token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ status: 'forbidden' });
    }
  });

  it('staff get 403 on /api/me', async () => {
    for (const token of [admin.session.token, doctorA.session.token]) {
      const res = await t.request('GET', '/api/me/messages', { token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 'forbidden' });
    }
  });
});

describe('GET /api/me', () => {
  it('answers the own data, unit, doctor and the support phone (null while unset)', async () => {
    const before = await me(anna, '');
    expect(before.statusCode).toBe(200);
    const unit = await t.request('GET', `/api/units/${doctorA.doctor.unit_id}`, {
      token: admin.session.token,
    });
    expect(before.json()).toEqual({
      id: anna.id,
      firstname: 'Anna',
      surname: 'Kowalska',
      login: anna.login,
      unit_name: unit.json<{ name: string }>().name,
      doctor: { firstname: 'Ewa', surname: 'Lekarska' },
      support: null,
    });
    const saved = await t.request('POST', '/api/settings/phone', {
      token: admin.session.token,
      body: { value: { courier: '601100100', support: '602200200' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await me(anna, '')).json<MeProfile>().support).toBe('602200200');
    expect((await me(bartek, '')).json<MeProfile>().id).toBe(bartek.id);
  });
});

describe('GET /api/me/messages', () => {
  it("marks the own unread messages read, under the patient's name, and shows only the own", async () => {
    const send = (token: string, receiver: number, content: string) =>
      t.request('POST', '/api/notifications', {
        token,
        body: { content, receiver_user_id: receiver },
      });
    const first = await send(doctorA.session.token, anna.userId, '<p>Proszę o wyniki</p>');
    const second = await send(admin.session.token, anna.userId, '<p>Od administratora</p>');
    await send(doctorB.session.token, bartek.userId, '<p>Do Bartka</p>');
    const firstId = first.json<{ data: { id: number } }>().data.id;
    const secondId = second.json<{ data: { id: number } }>().data.id;

    const res = await me(anna, '/messages');
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: Record<string, unknown>[] }>().data;
    expect(data.map((m) => m.id)).toEqual([secondId, firstId]);
    expect(data[0]).toEqual({
      id: secondId,
      content: '<p>Od administratora</p>',
      created_at: expect.any(String) as string,
      read_at: expect.any(String) as string,
      sender: null,
    });
    expect(data[1]).toMatchObject({ sender: { firstname: 'Ewa', surname: 'Lekarska' } });

    // The portal now shows them read, and read-only.
    const staff = await t.request('GET', '/api/notifications', {
      token: doctorA.session.token,
      query: { user_id: String(anna.userId) },
    });
    const thread = staff.json<{ data: { id: number; read_at: string | null; version: number }[] }>()
      .data;
    expect(thread.every((m) => m.read_at !== null)).toBe(true);
    const edit = await t.request('PUT', `/api/notifications/${firstId}`, {
      token: doctorA.session.token,
      body: { content: '<p>Zmiana</p>', version: thread.find((m) => m.id === firstId)!.version },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toEqual({ status: 'already_read' });
    const removal = await t.request('DELETE', `/api/notifications/${firstId}`, {
      token: doctorA.session.token,
    });
    expect(removal.json()).toEqual({ status: 'already_read' });

    // The audit trail names the patient as the one who read it.
    const audit = await t.db
      .select({ userId: auditEntries.user_id })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'messages'),
          eq(auditEntries.entity_id, String(firstId)),
          eq(auditEntries.column_name, 'read_at'),
        ),
      );
    expect(audit.map((a) => a.userId)).toEqual([anna.userId]);

    // Bartek's message stays unread until Bartek reads it.
    const [bartekUnread] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.patient_id, bartek.id), sql`${messages.read_at} is null`));
    expect(bartekUnread!.n).toBe(1);
    const bartekRes = await me(bartek, '/messages');
    expect(bartekRes.json<{ data: { content: string }[] }>().data.map((m) => m.content)).toEqual([
      '<p>Do Bartka</p>',
    ]);

    // A second reading keeps the first read time.
    const again = await me(anna, '/messages');
    expect(again.json<{ data: { read_at: string }[] }>().data[1]!.read_at).toBe(data[1]!.read_at);
  });
});

describe('GET /api/me/announcements', () => {
  it('lists announcements newest first and counts each reader once', async () => {
    const ids: number[] = [];
    for (const [i, sender] of [admin.session.user.id, doctorA.session.user.id].entries()) {
      const [row] = await t.db
        .insert(globalMessages)
        .values({
          content: `<p>Komunikat ${i + 1}</p>`,
          sender_user_id: sender,
          created_at: new Date(Date.UTC(2026, 10, 1 + i)),
        })
        .returning({ id: globalMessages.id });
      ids.push(row!.id);
    }
    const readers = async (id: number) =>
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(globalMessageReads)
          .where(eq(globalMessageReads.message_id, id))
      )[0]!.n;

    const res = await me(anna, '/announcements');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          id: ids[1],
          content: '<p>Komunikat 2</p>',
          created_at: '2026-11-02T00:00:00.000Z',
          sender: { firstname: 'Ewa', surname: 'Lekarska' },
        },
        {
          id: ids[0],
          content: '<p>Komunikat 1</p>',
          created_at: '2026-11-01T00:00:00.000Z',
          sender: null,
        },
      ],
      total_count: 2,
    });
    await me(anna, '/announcements');
    expect(await readers(ids[0]!)).toBe(1);
    // A page records only what it showed.
    const page = await t.request('GET', '/api/me/announcements', {
      token: bartek.session.token,
      query: { limit: '1', page: '1' },
    });
    expect(page.json<{ data: unknown[]; total_count: number }>()).toMatchObject({
      total_count: 2,
    });
    expect(await readers(ids[1]!)).toBe(2);
    expect(await readers(ids[0]!)).toBe(1);
    const bad = await t.request('GET', '/api/me/announcements', {
      token: bartek.session.token,
      query: { limit: '1000' },
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('GET /api/me/documents', () => {
  it("lists and downloads the patient panel's documents only", async () => {
    const leaflet = await insertFile('patient_documents', 'Ulotka żółta.txt');
    const doctorDoc = await insertFile('doctor_documents', 'Protokół.txt');
    const attachment = await insertFile('patient', 'Wynik Bartka.txt', bartek.id);
    const ownAttachment = await insertFile('patient', 'Wynik Anny.txt', anna.id);

    const list = await me(anna, '/documents');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      data: [
        {
          id: leaflet,
          original_name: 'Ulotka żółta.txt',
          created_at: expect.any(String) as string,
          size_bytes: 7,
        },
      ],
    });
    const file = await me(anna, `/documents/${leaflet}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Ulotka zolta.txt"; filename*=UTF-8''${encodeURIComponent('Ulotka żółta.txt')}`,
    );
    expect(file.body).toBe('Zalecen');
    for (const id of [doctorDoc, attachment, ownAttachment, 999999]) {
      const res = await me(anna, `/documents/${id}`);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ status: 'not_found' });
    }
  });
});

describe('own visits, samples and kit orders', () => {
  it('answers only the own visits and samples', async () => {
    const annaVisit = await insertVisit(anna.id, doctorA.doctor.unit_id, '2026-12-01');
    await insertVisit(bartek.id, doctorB.doctor.unit_id, '2026-12-01');
    const annaProbe = await insertProbe(t.db, admin.session.user.id, anna.id);
    await insertProbe(t.db, admin.session.user.id, bartek.id);

    const visitsRes = await me(anna, '/visits');
    expect(visitsRes.statusCode).toBe(200);
    const own = visitsRes.json<{ data: Visit[] }>().data;
    expect(own.map((v) => v.id)).toEqual([annaVisit]);
    expect(own[0]).toMatchObject({ patient_id: anna.id, ordinal: 1 });

    const probesRes = await me(anna, '/probes');
    expect(probesRes.statusCode).toBe(200);
    const ownProbes = probesRes.json<{ data: { id: number; patient_id: number }[] }>().data;
    expect(ownProbes.map((p) => p.id)).toEqual([annaProbe.id]);
  });

  it('orders kits for the own record only and lists the own orders', async () => {
    const res = await me(anna, '/probe-sets', { body: { ...order, patient_id: bartek.id } });
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json<ProbeSetSaved>();
    expect(saved.status).toBe('success');
    // The body's patient_id is not the patient API's to choose: the own id is used.
    expect(saved.probe_set).toMatchObject({
      patient_id: anna.id,
      amount: 2,
      labels_amount: 3,
      status: 0,
      city: 'Łódź',
    });
    expect(saved.probe_set.sets.map((kit) => kit.kit_number)).toEqual([1, 2]);
    const [stored] = await t.db
      .select({ orderedBy: probeSets.ordered_by })
      .from(probeSets)
      .where(eq(probeSets.id, saved.probe_set.id));
    expect(stored!.orderedBy).toBe(anna.userId);

    await me(bartek, '/probe-sets', { body: order });
    const list = await me(anna, '/probe-sets');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: { id: number }[] }>().data.map((s) => s.id)).toEqual([
      saved.probe_set.id,
    ]);
    const kits = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(probeSetKits)
      .where(eq(probeSetKits.patient_id, anna.id));
    expect(kits[0]!.n).toBe(2);
  });

  it('refuses a bad order whole', async () => {
    for (const body of [
      { ...order, amount: 0 },
      { ...order, amount: 21 },
      { ...order, labels_amount: 11 },
      { ...order, city: '' },
      { ...order, street: 'Dłu\u0000ga' },
    ]) {
      const res = await me(bartek, '/probe-sets', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_error' });
    }
    const orders = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(probeSets)
      .where(eq(probeSets.patient_id, bartek.id));
    expect(orders[0]!.n).toBe(1);
  });
});

describe('sessions of patients', () => {
  it('an expired patient token answers Expired Token', async () => {
    const session = await t.login('patient', bartek.login, CHOSEN_PASSWORD);
    await t.db
      .update(sessions)
      .set({ access_expires_at: new Date(Date.now() - 1000) })
      .where(eq(sessions.access_token_hash, tokenDigest(session.token)));
    const res = await t.request('GET', '/api/me', { token: session.token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 'unauthorized', error: 'Expired Token' });
  });
});

describe('OpenAPI', () => {
  it('documents the patient API under its own tag, with how to sign in and every status', () => {
    const doc = t.app.swagger() as {
      tags?: { name: string; description?: string }[];
      paths?: Record<string, Record<string, { tags?: string[]; responses?: object }>>;
    };
    const tag = doc.tags?.find((x) => x.name === 'patient-api');
    expect(tag?.description).toContain('POST /api/auth/login/patient');
    expect(tag?.description).toContain('password_change_required');
    expect(tag?.description).toContain('POST /api/auth/refresh');
    // The e-mail choices share the path with staff (ADR 062): documented under notifications.
    const mePaths = Object.entries(doc.paths ?? {}).filter(
      ([path]) =>
        (path === '/api/me' || path.startsWith('/api/me/')) &&
        path !== '/api/me/notification_preferences',
    );
    expect(mePaths).toHaveLength(9);
    for (const [path, operations] of mePaths) {
      for (const operation of Object.values(operations)) {
        expect(operation.tags, path).toEqual(['patient-api']);
        expect(Object.keys(operation.responses ?? {}), path).toEqual(
          expect.arrayContaining(['401', '403']),
        );
      }
    }
    expect(doc.paths?.['/api/auth/login/patient']?.post?.tags).toEqual(['patient-api']);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('races on PostgreSQL', () => {
  it('counts a reader once and marks a message read once when one patient reads in parallel', async () => {
    const patient = await readyPatient(t, doctorA, { surname: 'Równoległa' });
    const [announcement] = await t.db
      .insert(globalMessages)
      .values({ content: '<p>Równolegle</p>', sender_user_id: admin.session.user.id })
      .returning({ id: globalMessages.id });
    const sent = await t.request('POST', '/api/notifications', {
      token: doctorA.session.token,
      body: { content: '<p>Raz</p>', receiver_user_id: patient.userId },
    });
    const messageId = sent.json<{ data: { id: number } }>().data.id;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => me(patient, i % 2 ? '/announcements' : '/messages')),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    const [reads] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(globalMessageReads)
      .where(eq(globalMessageReads.message_id, announcement!.id));
    expect(reads!.n).toBe(1);
    const readAudit = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'messages'),
          eq(auditEntries.entity_id, String(messageId)),
          eq(auditEntries.column_name, 'read_at'),
        ),
      );
    expect(readAudit[0]!.n).toBe(1);
  });
});
