import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('doctor comments', () => {
  it('stores sanitised HTML with author and date, lists newest first, deletes with an audit entry', async () => {
    const patient = await registerPatient(t, doctor);
    const token = doctor.session.token;
    const res = await t.request('POST', '/api/patients/notes', {
      token,
      body: {
        content:
          '<p onclick="alert(1)">Ciśnienie <strong>140/90</strong><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
        ref_type: 'patient',
        ref_id: patient.id,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json<{ note: { id: number; content: string; author: { surname: string } } }>()
      .note;
    expect(note.content).toBe(
      '<p>Ciśnienie <strong>140/90</strong><a target="_blank" rel="noopener noreferrer nofollow">x</a></p>',
    );
    expect(note.author.surname).toBe(doctor.doctor.surname);

    await t.request('POST', '/api/patients/notes', {
      token: admin.session.token,
      body: { content: '<p>Druga</p>', ref_id: patient.id },
    });
    const list = (
      await t.request('GET', '/api/patients/notes', {
        token,
        query: { ref_id: String(patient.id) },
      })
    ).json<{ data: { content: string; author: { login: string } }[] }>();
    expect(list.data.map((n) => n.content)).toEqual(['<p>Druga</p>', note.content]);
    expect(list.data[0]?.author.login).toBe(admin.login);

    expect((await t.request('DELETE', `/api/patients/notes/${note.id}`, { token })).json()).toEqual(
      { status: 'success' },
    );
    const after = (
      await t.request('GET', '/api/patients/notes', {
        token,
        query: { ref_id: String(patient.id) },
      })
    ).json<{ data: unknown[] }>();
    expect(after.data).toHaveLength(1);
    const audit = (
      await t.request('GET', '/api/audit_trial', {
        token: admin.session.token,
        query: { patientIds: String(patient.id), limit: '100' },
      })
    ).json<{
      data: {
        entity_name: string;
        column_name: string;
        old_value: string | null;
        new_value: string | null;
      }[];
    }>();
    expect(audit.data).toContainEqual(
      expect.objectContaining({
        entity_name: 'notes',
        column_name: 'content',
        old_value: note.content,
        new_value: null,
      }),
    );
  });

  it('refuses empty content, also when only tags remain after sanitising', async () => {
    const patient = await registerPatient(t, doctor);
    for (const content of ['', '<p><script>x</script></p>']) {
      const res = await t.request('POST', '/api/patients/notes', {
        token: doctor.session.token,
        body: { content, ref_id: patient.id },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { content: ['To pole musi być wypełnione'] },
      });
    }
  });

  it('answers 404 for a missing note', async () => {
    expect(
      (await t.request('DELETE', '/api/patients/notes/999999', { token: doctor.session.token }))
        .statusCode,
    ).toBe(404);
  });
});
