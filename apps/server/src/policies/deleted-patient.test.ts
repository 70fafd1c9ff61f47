import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import type { ReadyDoctor, TestApp } from '../test/harness.js';
import { freshPesel } from '../test/patients-fixture.js';

let t: TestApp;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

const DELETED = { status: 'patient_deleted' };

function personal(pesel: string) {
  return {
    firstname: 'Irena',
    surname: 'Usunięta',
    pesel,
    phone_number: '601202303',
    doctor_id: doctor.doctor.id,
    unit_id: doctor.doctor.unit_id,
  };
}

const sections = {
  exclusion: { is_above_18: true, exclusion_criteria_id: null, is_classified: true },
  inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
  medicines: [],
  additional_medicines: [],
};

function textUpload(patientId: number) {
  const boundary = '----portal-deleted-patient';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="ref_type"\r\n\r\npatient\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="ref_id"\r\n\r\n${patientId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ekg.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\nRytm zatokowy.\r\n--${boundary}--\r\n`,
  );
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a deleted patient', () => {
  it('is read-only through the API (409 patient_deleted) until restored', async () => {
    const as = { token: doctor.session.token };
    const pesel = freshPesel('K');
    const created = await t.request('POST', '/api/patients', {
      ...as,
      body: { personal: { ...personal(pesel), acceptance: true }, ...sections },
    });
    expect(created.statusCode, created.body).toBe(200);
    // The answer carries the patient's password.
    expect(created.headers['cache-control']).toBe('no-store');
    const id = created.json<{ patient: { id: number } }>().patient.id;
    const detail = (await t.request('GET', `/api/patients/${id}`, as)).json<{
      user_id: number;
      version?: number;
    }>();
    const userId = detail.user_id;
    const noteId = (
      await t.request('POST', '/api/patients/notes', {
        ...as,
        body: { content: '<p>Notatka</p>', ref_type: 'patient', ref_id: id },
      })
    ).json<{ note: { id: number } }>().note.id;
    const fileId = (await t.request('POST', '/api/files', { ...as, ...textUpload(id) })).json<{
      file: { id: number };
    }>().file.id;
    const messageId = (
      await t.request('POST', '/api/notifications', {
        ...as,
        body: { content: '<p>Wiadomość</p>', receiver_user_id: userId },
      })
    ).json<{ data: { id: number } }>().data.id;

    expect((await t.request('DELETE', `/api/patients/${id}`, as)).statusCode).toBe(200);

    // The version (issue 7 item 5) is sent back when the record has one.
    const version = detail.version === undefined ? {} : { version: detail.version };
    const refused: [string, string, { body?: unknown; headers?: Record<string, string> }][] = [
      [
        'PUT',
        `/api/patients/${id}`,
        { body: { personal: personal(pesel), ...sections, ...version } },
      ],
      ['GET', `/api/patients/print_password/${id}`, {}],
      ['POST', '/api/patients/notes', { body: { content: '<p>Nowa</p>', ref_id: id } }],
      ['DELETE', `/api/patients/notes/${noteId}`, {}],
      ['POST', '/api/files', textUpload(id)],
      ['DELETE', `/api/files/${fileId}`, {}],
      [
        'POST',
        '/api/notifications',
        { body: { content: '<p>Nowa</p>', receiver_user_id: userId } },
      ],
      [
        'PUT',
        `/api/notifications/${messageId}`,
        { body: { content: '<p>Zmiana</p>', version: 1 } },
      ],
      ['DELETE', `/api/notifications/${messageId}`, {}],
    ];
    for (const [method, url, options] of refused) {
      const res = await t.request(method, url, { ...as, ...options });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(409);
      expect(res.json()).toEqual(DELETED);
    }

    // Everything stays readable.
    const reads = [
      ['/api/patients/notes', { ref_id: String(id) }],
      ['/api/files', { ref_type: 'patient', ref_id: String(id) }],
      ['/api/notifications', { user_id: String(userId) }],
    ] as const;
    for (const [url, query] of reads) {
      const res = await t.request('GET', url, { ...as, query: { ...query } });
      expect(res.statusCode, url).toBe(200);
      expect(res.json<{ data: unknown[] }>().data, url).toHaveLength(1);
    }
    expect((await t.request('GET', `/api/files/${fileId}`, as)).statusCode).toBe(200);

    // Restoring stays possible, and the patient can change again.
    expect((await t.request('PUT', `/api/patients/restore/${id}`, as)).statusCode).toBe(200);
    const note = await t.request('POST', '/api/patients/notes', {
      ...as,
      body: { content: '<p>Po przywróceniu</p>', ref_id: id },
    });
    expect(note.statusCode, note.body).toBe(200);
    const print = await t.request('GET', `/api/patients/print_password/${id}`, as);
    expect(print.statusCode).toBe(200);
    expect(print.headers['cache-control']).toBe('no-store');
    expect((await t.request('DELETE', `/api/patients/notes/${noteId}`, as)).statusCode).toBe(200);
  });
});
