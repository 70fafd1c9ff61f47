import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, validationMessage, warsawToday } from '@portal/shared';
import type { Visit, VisitSaved } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { auditEntries, files, visits } from '../../db/schema.js';
import { withStoredVersion } from '../../test/versions.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { putWithReason } from '../../test/versions.js';

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

let slot = 0;
const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

/**
 * A visit written straight into the table (booking refuses past days, recording needs them),
 * each in its own one-minute slot so that the unit's slot index never collides.
 */
async function visitOn(date: string, overrides: { patientId?: number } = {}) {
  const patientId = overrides.patientId ?? (await registerPatient(t, doctor)).id;
  slot += 1;
  const [row] = await inTransaction(t.db, doctor.session.user.id, (tx) =>
    tx
      .insert(visits)
      .values({
        patient_id: patientId,
        unit_id: doctor.doctor.unit_id,
        doctor_id: doctor.doctor.id,
        date,
        started_at: clock(slot),
        ended_at: clock(slot + 1),
      })
      .returning({ id: visits.id }),
  );
  return { id: row!.id, patientId };
}

/** Records with the visit's stored version unless the body names one (ADR 018). */
const record = async (id: number, body: unknown, token = doctor.session.token) =>
  putWithReason(t, `/api/visits/${id}/results`, {
    token,
    body: await withStoredVersion(t.db, visits, id, body),
  });
const read = (id: number, token = doctor.session.token) =>
  t.request('GET', `/api/visits/${id}`, { token });

const past = () => addDays(warsawToday(), -3);

describe('GET /api/visits/:id', () => {
  it('answers the visit flat, with the ordinal among the patient visits', async () => {
    const first = await visitOn(addDays(warsawToday(), -40));
    const second = await visitOn(past(), { patientId: first.patientId });
    const res = await read(second.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<Visit>();
    expect(body).toMatchObject({
      id: second.id,
      date: past(),
      ordinal: 2,
      patient_id: first.patientId,
      patient: { firstname: 'Tadeusz', surname: 'Mazur' },
      doctor_id: doctor.doctor.id,
      unit_id: doctor.doctor.unit_id,
      isDone: false,
      comment: null,
      results: { qt: null, rr: null, pq: null, qrs: null, qtcb: null, qtcfra: null },
      out_of_norm: [],
      files: [],
      probes: [],
    });
    expect((await read(first.id, admin.session.token)).json<Visit>().ordinal).toBe(1);
  });

  it("answers 404 for another unit's visit, a cancelled one and a missing one", async () => {
    const visit = await visitOn(past());
    expect((await read(visit.id, otherDoctor.session.token)).statusCode).toBe(404);
    await inTransaction(t.db, admin.session.user.id, (tx) =>
      tx.update(visits).set({ cancelled_at: new Date() }).where(eq(visits.id, visit.id)),
    );
    expect((await read(visit.id)).statusCode).toBe(404);
    expect((await read(2_000_000_000)).statusCode).toBe(404);
  });
});

describe('PUT /api/visits/:id/results', () => {
  it('stores the ECG with QTcB and QTcF computed on the server and flags what is out of norm', async () => {
    const visit = await visitOn(past());
    const res = await record(visit.id, {
      isDone: true,
      comment: '<p>Rytm zatokowy</p><script>alert(1)</script>',
      results: { qt: 400, rr: 640, pq: 230, qrs: 90 },
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json<VisitSaved>();
    expect(saved.status).toBe('ok');
    // By hand: RR 0.64 s, sqrt 0.8 -> 400/0.8 = 500; cbrt(0.64) = 0.86177 -> 464.16 -> 464.
    expect(saved.visit.results).toEqual({
      qt: 400,
      rr: 640,
      pq: 230,
      qrs: 90,
      qtcb: 500,
      qtcfra: 464,
    });
    expect(saved.visit.isDone).toBe(true);
    expect(saved.visit.comment).toBe('<p>Rytm zatokowy</p>');
    // A man: QTcB > 450, QTcF > 450, PQ > 200; RR 640 lies within 600-1000.
    expect(saved.visit.out_of_norm).toEqual(['pq', 'qtcb', 'qtcfra']);
    expect(saved.visit.version).toBe(2);
    expect((await read(visit.id)).json<Visit>().results.qtcb).toBe(500);
  });

  it('ignores corrections a client sends and computes them at RR 1000 ms as QT itself', async () => {
    const visit = await visitOn(past());
    const res = await record(visit.id, {
      isDone: true,
      results: { qt: 420, rr: 1000, pq: 160, qrs: 100, qtcb: 1, qtcfra: 1 },
    });
    expect(res.statusCode).toBe(200);
    const { results, out_of_norm } = res.json<VisitSaved>().visit;
    expect(results).toMatchObject({ qtcb: 420, qtcfra: 420 });
    expect(out_of_norm).toEqual([]);
  });

  it("allows today's visit and refuses a later day's with 409 too_early", async () => {
    const today = await visitOn(warsawToday());
    expect((await record(today.id, { isDone: true })).statusCode).toBe(200);
    const later = await visitOn(addDays(warsawToday(), 1));
    const res = await record(later.id, { isDone: true, results: { qt: 400, rr: 800 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'too_early' });
    const [row] = await t.db.select().from(visits).where(eq(visits.id, later.id));
    expect(row).toMatchObject({ is_done: false, qt: null, version: 1 });
  });

  it.each([
    ['negative', { qt: -400 }, 'implausible_value'],
    ['absurd QT 5000', { qt: 5000 }, 'implausible_value'],
    ['not a number', { rr: 'osiemset' }, 'invalid_number'],
    ['a fraction', { pq: 160.5 }, 'invalid_number'],
  ])('refuses a %s value with 422 and changes nothing', async (_label, bad, code) => {
    const visit = await visitOn(past());
    await record(visit.id, { isDone: false, results: { qt: 400, rr: 800, pq: 160, qrs: 90 } });
    const res = await record(visit.id, {
      isDone: true,
      results: { qt: 410, rr: 800, pq: 160, qrs: 90, ...bad },
    });
    expect(res.statusCode).toBe(422);
    const field = Object.keys(bad)[0]!;
    expect(res.json()).toMatchObject({
      status: 'validation_error',
      errors: { [`results.${field}`]: [validationMessage(code)] },
    });
    const [row] = await t.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(row).toMatchObject({ is_done: false, qt: 400, version: 2 });
  });

  it('answers 409 conflict for a stale version and accepts the current one', async () => {
    const visit = await visitOn(past());
    expect((await record(visit.id, { isDone: true, version: 1 })).statusCode).toBe(200);
    const stale = await record(visit.id, { isDone: false, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ status: 'conflict' });
    expect((await record(visit.id, { isDone: false, version: 2 })).statusCode).toBe(200);
  });

  it("refuses another unit's visit (404) and a deleted patient's (409 patient_deleted)", async () => {
    const visit = await visitOn(past());
    const other = await record(visit.id, { isDone: true }, otherDoctor.session.token);
    expect(other.statusCode).toBe(404);
    const deleted = await t.request('DELETE', `/api/patients/${visit.patientId}`, {
      token: doctor.session.token,
    });
    expect(deleted.statusCode).toBe(200);
    const res = await record(visit.id, { isDone: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'patient_deleted' });
  });

  it('lets an administrator record any unit and writes every change to the audit trail', async () => {
    const visit = await visitOn(past());
    const res = await record(
      visit.id,
      {
        isDone: true,
        comment: '<p>Bez zmian</p>',
        results: { qt: 380, rr: 900, pq: 150, qrs: 88 },
      },
      admin.session.token,
    );
    expect(res.statusCode).toBe(200);
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'visits'),
          eq(auditEntries.entity_id, String(visit.id)),
          eq(auditEntries.operation, 'update'),
        ),
      );
    const changed = Object.fromEntries(entries.map((e) => [e.column_name, e.new_value]));
    expect(changed).toMatchObject({
      is_done: 'true',
      comment: '<p>Bez zmian</p>',
      qt: '380',
      rr: '900',
      // By hand: 380 / √0.9 = 400.55 → 401; 380 / ∛0.9 = 393.58 → 394.
      qtcb: '401',
      qtcfra: '394',
    });
    for (const entry of entries) {
      expect(entry.user_id).toBe(admin.session.user.id);
      expect(entry.patient_id).toBe(visit.patientId);
    }
  });
});

/** A multipart body as a browser sends it. */
function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = '----portal-visit-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    body: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const AECG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<AnnotatedECG xmlns="urn:hl7-org:v3"><id root="1"/></AnnotatedECG>',
);

const uploadEcg = (visitId: number, name: string, content: Buffer, token = doctor.session.token) =>
  t.request('POST', '/api/files', {
    token,
    ...multipart({ ref_type: 'visit', ref_id: String(visitId) }, { name, content }),
  });

describe('ECG files of a visit', () => {
  it.each([
    ['EKG spoczynkowe.pdf', PDF, 'application/pdf'],
    ['zapis.png', PNG, 'image/png'],
    ['skan.JPG', JPEG, 'image/jpeg'],
    ['eksport-aECG.xml', AECG, 'application/xml'],
  ])(
    'accepts %s by its content, lists it on the visit and the card',
    async (name, content, mime) => {
      const visit = await visitOn(past());
      const res = await uploadEcg(visit.id, name, content);
      expect(res.statusCode, res.body).toBe(200);
      const file = res.json<{ file: { id: number; mime_type: string; ref_type: string } }>().file;
      expect(file).toMatchObject({ mime_type: mime, ref_type: 'visit' });
      const [row] = await t.db
        .select({ patientId: files.patient_id })
        .from(files)
        .where(eq(files.id, file.id));
      expect(row!.patientId).toBe(visit.patientId);
      const list = await t.request('GET', '/api/files', {
        token: doctor.session.token,
        query: { ref_type: 'visit', ref_id: String(visit.id) },
      });
      expect(list.json<{ data: { id: number }[] }>().data.map((f) => f.id)).toEqual([file.id]);
      expect((await read(visit.id)).json<Visit>().files).toMatchObject([
        { id: file.id, original_name: name },
      ]);
      // The patient's attachments stay apart.
      const attachments = await t.request('GET', '/api/files', {
        token: doctor.session.token,
        query: { ref_type: 'patient', ref_id: String(visit.patientId) },
      });
      expect(attachments.json<{ data: unknown[] }>().data).toEqual([]);
    },
  );

  it.each([
    ['a PDF named .png', 'zapis.png', PDF],
    ['a Word file', 'opis.docx', PDF],
    ['an HTML page named .xml', 'ekg.xml', Buffer.from('<html><script>alert(1)</script></html>')],
    [
      'XML with a DOCTYPE',
      'ekg.xml',
      Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'),
    ],
    ['text named .xml', 'ekg.xml', Buffer.from('QT 400 ms')],
  ])('refuses %s with 422 invalid_file_type', async (_label, name, content) => {
    const visit = await visitOn(past());
    const res = await uploadEcg(visit.id, name, content);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      errors: { file: [validationMessage('invalid_file_type')] },
    });
  });

  it("keeps another unit's visit and its files out of reach (404) and downloads under the original name", async () => {
    const visit = await visitOn(past());
    expect((await uploadEcg(visit.id, 'a.pdf', PDF, otherDoctor.session.token)).statusCode).toBe(
      404,
    );
    expect((await uploadEcg(2_000_000_000, 'a.pdf', PDF)).statusCode).toBe(404);
    const uploaded = await uploadEcg(visit.id, 'EKG – Żółkiewski.pdf', PDF);
    const id = uploaded.json<{ file: { id: number } }>().file.id;

    const mine = await t.request('GET', `/api/files/${id}`, { token: doctor.session.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('EKG – Żółkiewski.pdf')}`,
    );
    expect(mine.rawPayload.equals(PDF)).toBe(true);

    const other = otherDoctor.session.token;
    expect((await t.request('GET', `/api/files/${id}`, { token: other })).statusCode).toBe(404);
    expect(
      (
        await t.request('GET', '/api/files', {
          token: other,
          query: { ref_type: 'visit', ref_id: String(visit.id) },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.request('DELETE', `/api/files/${id}`, { token: other })).statusCode).toBe(404);
    expect(
      (await t.request('DELETE', `/api/files/${id}`, { token: doctor.session.token })).statusCode,
    ).toBe(200);
    expect((await read(visit.id)).json<Visit>().files).toEqual([]);
  });
});
