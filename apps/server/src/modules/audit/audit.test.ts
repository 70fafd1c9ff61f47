import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, warsawToday } from '@portal/shared';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

interface Entry {
  entity_name: string;
  column_name: string;
  operation: string;
  old_value: string | null;
  new_value: string | null;
  user: { login: string | null };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

async function entries(patientId: number): Promise<Entry[]> {
  const res = await t.request('GET', '/api/audit_trial', {
    token: admin.session.token,
    query: { patientIds: String(patientId), limit: '100' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Entry[] }>().data;
}

function multipartPdf(patientId: number) {
  const boundary = '----audit-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="ref_id"\r\n\r\n${patientId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ekg.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    Buffer.from('%PDF-1.4\n%%EOF\n'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('audit entries for every kind of change', () => {
  it('records notes, files, messages and deletion with the acting user and without file contents', async () => {
    const patient = await registerPatient(t, doctor);
    const token = doctor.session.token;

    const note = (
      await t.request('POST', '/api/patients/notes', {
        token,
        body: { content: '<p>Notatka</p>', ref_id: patient.id },
      })
    ).json<{ note: { id: number } }>().note;
    await t.request('DELETE', `/api/patients/notes/${note.id}`, { token });

    const file = (
      await t.request('POST', '/api/files', { token, ...multipartPdf(patient.id) })
    ).json<{
      file: { id: number };
    }>().file;
    await t.request('DELETE', `/api/files/${file.id}`, { token });

    const message = (
      await t.request('POST', '/api/notifications', {
        token,
        body: { content: 'Pierwsza', receiver_user_id: patient.userId },
      })
    ).json<{ data: { id: number } }>().data;
    await t.request('PUT', `/api/notifications/${message.id}`, {
      token,
      body: { content: 'Druga', version: 1 },
    });
    await t.request('DELETE', `/api/notifications/${message.id}`, { token });

    await t.request('DELETE', `/api/patients/${patient.id}`, { token: admin.session.token });

    const log = await entries(patient.id);
    const has = (entity: string, operation: string, column: string) =>
      log.some(
        (e) => e.entity_name === entity && e.operation === operation && e.column_name === column,
      );
    expect(has('notes', 'insert', 'content')).toBe(true);
    expect(has('notes', 'delete', 'content')).toBe(true);
    expect(has('files', 'insert', 'original_name')).toBe(true);
    expect(has('files', 'delete', 'original_name')).toBe(true);
    expect(log.some((e) => e.entity_name === 'files' && e.column_name === 'content')).toBe(false);
    expect(log).toContainEqual(
      expect.objectContaining({
        entity_name: 'messages',
        operation: 'update',
        column_name: 'content',
        old_value: 'Pierwsza',
        new_value: 'Druga',
      }),
    );
    expect(has('messages', 'delete', 'content')).toBe(true);
    // The edit's version bump is bookkeeping, not a change worth an entry (migration 0008).
    expect(log.some((e) => e.column_name === 'version')).toBe(false);
    const deletion = log.find(
      (e) => e.entity_name === 'patients' && e.column_name === 'deleted_at',
    );
    expect(deletion).toMatchObject({
      operation: 'update',
      old_value: null,
      user: { login: admin.login },
    });
    expect(
      log
        .filter((e) => e.entity_name !== 'patients' || e.column_name !== 'deleted_at')
        .every((e) => e.user.login === doctor.login),
    ).toBe(true);
  });
});

describe('date filters', () => {
  it('take calendar days in Warsaw: today includes a change made now, tomorrow and yesterday do not', async () => {
    const patient = await registerPatient(t, doctor);
    const today = warsawToday();
    const count = async (query: Record<string, string>) => {
      const res = await t.request('GET', '/api/audit_trial', {
        token: admin.session.token,
        query: { patientIds: String(patient.id), ...query },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ total: number }>().total;
    };
    const all = await count({});
    expect(all).toBeGreaterThan(0);
    expect(await count({ from_date: today, to_date: today })).toBe(all);
    expect(await count({ from_date: addDays(today, 1) })).toBe(0);
    expect(await count({ to_date: addDays(today, -1) })).toBe(0);
  });
});
