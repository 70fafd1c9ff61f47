import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('patient messages', () => {
  it('sends, lists newest first with the sender, edits and deletes unread messages only', async () => {
    const patient = await registerPatient(t, doctor);
    const token = doctor.session.token;
    const sent = await t.request('POST', '/api/notifications', {
      token,
      body: { content: '<p>Proszę o kontrolę ciśnienia.</p>', receiver_user_id: patient.userId },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const first = sent.json<{
      data: { id: number; read_at: null; sender: { surname: string; role: string } };
    }>().data;
    expect(first).toMatchObject({
      read_at: null,
      sender: { surname: doctor.doctor.surname, role: 'doctor' },
    });
    const second = (
      await t.request('POST', '/api/notifications', {
        token: admin.session.token,
        body: { content: 'Wizyta przesunięta', receiver_user_id: patient.userId },
      })
    ).json<{ data: { id: number; sender: { role: string; firstname: null } } }>().data;
    expect(second.sender).toEqual({ role: 'admin', firstname: null, surname: null });

    const list = (
      await t.request('GET', '/api/notifications', {
        token,
        query: { user_id: String(patient.userId) },
      })
    ).json<{ data: { id: number }[] }>();
    expect(list.data.map((m) => m.id)).toEqual([second.id, first.id]);

    const edited = await t.request('PUT', `/api/notifications/${first.id}`, {
      token,
      body: { content: '<p>Poprawione</p>', version: 1 },
    });
    expect(edited.json()).toMatchObject({ data: { content: '<p>Poprawione</p>', version: 2 } });
    // A second edit from a screen that still holds version 1 would overwrite it unseen.
    const stale = await t.request('PUT', `/api/notifications/${first.id}`, {
      token: admin.session.token,
      body: { content: '<p>Stara wersja</p>', version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ status: 'conflict' });
    const missingVersion = await t.request('PUT', `/api/notifications/${first.id}`, {
      token,
      body: { content: '<p>Bez wersji</p>' },
    });
    expect(missingVersion.statusCode).toBe(422);

    // The patient reads it in the patient app: from then on it is history.
    await t.db.execute(sql`update messages set read_at = now() where id = ${first.id}`);
    expect(
      (
        await t.request('PUT', `/api/notifications/${first.id}`, {
          token,
          body: { content: 'x', version: 2 },
        })
      ).json(),
    ).toEqual({ status: 'already_read' });
    expect(
      (await t.request('DELETE', `/api/notifications/${first.id}`, { token })).statusCode,
    ).toBe(409);
    // The administrator's message is not the doctor's to delete (policies/messages.ts).
    expect(
      (await t.request('DELETE', `/api/notifications/${second.id}`, { token })).json(),
    ).toEqual({ status: 'forbidden' });
    expect(
      (
        await t.request('DELETE', `/api/notifications/${second.id}`, {
          token: admin.session.token,
        })
      ).json(),
    ).toEqual({ status: 'success' });
  });

  it("requires content and hides other units' patients", async () => {
    const patient = await registerPatient(t, doctor);
    const empty = await t.request('POST', '/api/notifications', {
      token: doctor.session.token,
      body: { content: ' ', receiver_user_id: patient.userId },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      status: 'validation_error',
      errors: { content: ['To pole musi być wypełnione'] },
    });
    const token = otherDoctor.session.token;
    expect(
      (
        await t.request('GET', '/api/notifications', {
          token,
          query: { user_id: String(patient.userId) },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request('POST', '/api/notifications', {
          token,
          body: { content: 'x', receiver_user_id: patient.userId },
        })
      ).statusCode,
    ).toBe(404);
  });
});
