import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeSet } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import { patients } from '../../db/schema.js';
import { decodeDataMatrix, inkBox, pdfPageToGrey, renderZpl } from '../../test/barcodes.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { readyPatient, registerPatient } from '../../test/patients-fixture.js';
import type { ReadyPatient } from '../../test/patients-fixture.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let stranger: ReadyDoctor;
let patient: ReadyPatient;
let patientId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  stranger = await t.readyDoctor((await t.unit()).id);
  patientId = (await registerPatient(t, doctor)).id;
  // A participant number as a hostile form could have stored it: the label carries it safe.
  await inTransaction(t.db, admin.session.user.id, (tx) =>
    tx.update(patients).set({ project_number: 'ŁÓDŹ-07~^\r' }).where(eq(patients.id, patientId)),
  );
  patient = await readyPatient(t, doctor);
});
afterAll(() => t?.close());

const as = (who: { session: { token: string } }) => ({ token: who.session.token });

async function order(amount: number, labels_amount: number, accept = true): Promise<ProbeSet> {
  const res = await t.request('POST', '/api/probe-sets', {
    ...as(doctor),
    body: {
      patient_id: patientId,
      amount,
      labels_amount,
      street: 'Długa',
      building: '5',
      postcode: '00-001',
      city: 'Łódź',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const set = res.json<{ probe_set: ProbeSet }>().probe_set;
  if (accept) {
    const decided = await t.request('PUT', `/api/probe-sets/${set.id}`, {
      ...as(admin),
      body: { status: 1, version: set.version },
    });
    expect(decided.statusCode).toBe(200);
  }
  return set;
}

const labels = (
  kind: 'zpl' | 'pdf',
  id: number,
  query?: Record<string, string>,
  who: { session: { token: string } } = doctor,
) =>
  t.request('GET', `/api/probe-sets/${id}/label.${kind}`, {
    ...as(who),
    ...(query ? { query } : {}),
  });

describe('kit labels (ADR 035)', () => {
  it("prints one ZPL label per kit, the order's labels_amount times by default, that scans as the kit", async () => {
    const set = await order(3, 2);
    const res = await labels('zpl', set.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe(`inline; filename="zestawy-${set.id}.zpl"`);
    expect(res.body.match(/\^XA/g)).toHaveLength(3);
    expect(res.body.match(/\^PQ2,/g)).toHaveLength(3);
    const images = await renderZpl(res.body, 50, 25);
    expect(images).toHaveLength(3);
    images.forEach((image, i) => {
      expect(decodeDataMatrix(image, { x0: 0, y0: 0, x1: 172, y1: 200 })).toBe(
        `ZESTAW-${set.id}-${i + 1}`,
      );
      expect(inkBox(image, { x0: 172, y0: 0, x1: 400, y1: 200 })!.x1).toBeLessThan(396);
    });
    // The heading, the kit code and the participant code, barcode-safe; never the name.
    expect(res.body).toContain(`^FDZESTAW 2/3^FS`);
    expect(res.body).toContain('^FDLODZ-07^FS');
    expect(res.body).not.toMatch(/~|\r/);
    expect((await labels('zpl', set.id, { amount: '1' })).body.match(/\^PQ1,/g)).toHaveLength(3);
    const none = await labels('zpl', set.id, { amount: '0' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
  });

  it('makes a PDF with amount pages per kit whose DataMatrix reads as the kit', async () => {
    const set = await order(2, 1);
    const res = await labels('pdf', set.id, { amount: '2' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="zestawy-${set.id}.pdf"`);
    const document = mupdf.Document.openDocument(res.rawPayload, 'application/pdf');
    expect(document.countPages()).toBe(4);
    const codes = [0, 1, 2, 3].map((page) => {
      const image = pdfPageToGrey(res.rawPayload, page);
      return decodeDataMatrix(image, { x0: 0, y0: 0, x1: image.height, y1: image.height });
    });
    expect(codes).toEqual([1, 1, 2, 2].map((kit) => `ZESTAW-${set.id}-${kit}`));
    const text = document.loadPage(3).toStructuredText('preserve-whitespace').asText();
    expect(text).toContain('ZESTAW 2/2');
    expect(text).toContain('LODZ-07');
  });

  it('refuses an amount out of range with its message, and 0 for a PDF with its own', async () => {
    const set = await order(1, 1);
    for (const kind of ['zpl', 'pdf'] as const) {
      const res = await labels(kind, set.id, { amount: '11' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: 'validation_error',
        errors: { amount: ['Liczba etykiet musi być od 0 do 10'] },
      });
    }
    const zero = await labels('pdf', set.id, { amount: '0' });
    expect(zero.statusCode).toBe(422);
    expect(zero.json()).toEqual({
      status: 'validation_error',
      errors: { amount: ['Plik PDF musi mieć co najmniej jedną etykietę: podaj liczbę od 1'] },
    });
  });

  it('answers 409 not_accepted for a registered or rejected order', async () => {
    const registered = await order(1, 1, false);
    const rejected = await order(1, 1, false);
    await t.request('PUT', `/api/probe-sets/${rejected.id}`, {
      ...as(admin),
      body: { status: 2, reason: 'Brak zgody', version: rejected.version },
    });
    for (const set of [registered, rejected]) {
      for (const kind of ['zpl', 'pdf'] as const) {
        const res = await labels(kind, set.id);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ status: 'not_accepted' });
      }
    }
  });

  it("answers 401 without a session, 403 to a patient, 404 for another unit's or a missing order", async () => {
    const set = await order(1, 1);
    for (const kind of ['zpl', 'pdf'] as const) {
      const anonymous = await t.request('GET', `/api/probe-sets/${set.id}/label.${kind}`);
      expect(anonymous.statusCode).toBe(401);
      expect((await labels(kind, set.id, undefined, patient)).statusCode).toBe(403);
      const other = await labels(kind, set.id, undefined, stranger);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ status: 'not_found' });
      expect((await labels(kind, 2_000_000_000)).statusCode).toBe(404);
    }
  });
});
