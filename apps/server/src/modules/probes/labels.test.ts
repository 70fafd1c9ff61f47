import zxing from '@zxing/library';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import { labelHeading, labelZpl, zplFieldData } from './label-service.js';

// @zxing/library ships CommonJS: its named exports are reachable through the default only.
const { BinaryBitmap, DataMatrixReader, HybridBinarizer, RGBLuminanceSource } = zxing;

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let probe: { id: number; code: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  const patient = await registerPatient(t, doctor);
  probe = await insertProbe(t.db, doctor.session.user.id, patient.id, {
    code: `KZP${Date.now() % 1_000_000}`,
    type_of_material: 'capillary',
    collect_place: 'home',
  });
});
afterAll(() => t?.close());

const label = (kind: 'zpl' | 'pdf', id: number, query?: Record<string, string>, token?: string) =>
  t.request('GET', `/api/probes/${id}/label.${kind}`, {
    token: token ?? doctor.session.token,
    ...(query ? { query } : {}),
  });

/** Renders a page at 8× and decodes the DataMatrix in its left square (where the label puts it). */
function decodeDataMatrix(pdf: Buffer, pageIndex: number): string {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pixmap = document
    .loadPage(pageIndex)
    .toPixmap(mupdf.Matrix.scale(8, 8), mupdf.ColorSpace.DeviceGray, false, true);
  const width = pixmap.getWidth();
  const side = pixmap.getHeight();
  const pixels = pixmap.getPixels();
  // The detector grows a white rectangle from the image's centre: give it the code's square only.
  const square = new Uint8ClampedArray(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) square[y * side + x] = pixels[y * width + x]!;
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(square, side, side)));
  return new DataMatrixReader().decode(bitmap).getText();
}

describe('labels as ZPL', () => {
  it('holds one label with UTF-8, the DataMatrix of the code, the words and the amount', async () => {
    const res = await label('zpl', probe.id, { amount: '2' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="etykiety-${probe.code}.zpl"`,
    );
    const zpl = res.body;
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('^CI28');
    expect(zpl).toMatch(new RegExp(`\\^BX[^\\n]*\\^FD${probe.code}\\^FS`));
    // "DOM - WŁO" with Ł as its UTF-8 bytes under ^FH.
    expect(zpl).toContain(`^FD${zplFieldData('DOM - WŁO')}^FS`);
    expect(zplFieldData('DOM - WŁO')).toBe('DOM - W_C5_81O');
    expect(zpl).toContain('^PQ2,');
  });

  it('prints one label by default and nothing for 0', async () => {
    expect((await label('zpl', probe.id)).body).toContain('^PQ1,');
    const none = await label('zpl', probe.id, { amount: '0' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
  });

  it('keeps ^ and ~ of a code from starting commands', () => {
    const zpl = labelZpl(
      { code: 'A^XZ~JR', type_of_material: 'venous', collect_place: 'clinic' },
      1,
    );
    expect(zpl).toContain('^FDA_5EXZ_7EJR^FS');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain('~JR');
    expect(labelHeading({ type_of_material: 'venous', collect_place: 'clinic' })).toBe('POR - ŻYL');
  });
});

describe('labels as PDF', () => {
  it('has one 50 × 25 mm page per label whose DataMatrix reads as the code', async () => {
    const res = await label('pdf', probe.id, { amount: '3' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="etykiety-${probe.code}.pdf"`,
    );
    const pdf = res.rawPayload;
    const document = mupdf.Document.openDocument(pdf, 'application/pdf');
    expect(document.countPages()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const [x0, y0, x1, y1] = document.loadPage(i).getBounds();
      expect((x1 - x0) / (72 / 25.4)).toBeCloseTo(50, 1);
      expect((y1 - y0) / (72 / 25.4)).toBeCloseTo(25, 1);
    }
    expect(decodeDataMatrix(pdf, 0)).toBe(probe.code);
    expect(decodeDataMatrix(pdf, 2)).toBe(probe.code);
    const text = document.loadPage(0).toStructuredText('preserve-whitespace').asText();
    expect(text).toContain('DOM - WŁO');
    expect(text).toContain(probe.code);
  });

  it('makes one page by default and refuses 0 (a PDF needs a page)', async () => {
    const one = await label('pdf', probe.id, undefined, admin.session.token);
    expect(one.statusCode).toBe(200);
    expect(mupdf.Document.openDocument(one.rawPayload, 'application/pdf').countPages()).toBe(1);
    const none = await label('pdf', probe.id, { amount: '0' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      status: 'validation_error',
      errors: { amount: [expect.any(String)] },
    });
  });
});

describe('bad requests', () => {
  it.each(['11', '-1', 'dwa', '1.5', '1e400'])('refuses amount %s with 422', async (amount) => {
    for (const kind of ['zpl', 'pdf'] as const) {
      const res = await label(kind, probe.id, { amount });
      expect(res.statusCode, `${kind} ${amount}`).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_error' });
    }
  });

  it("answers 404 for another unit's sample and a missing one", async () => {
    for (const kind of ['zpl', 'pdf'] as const) {
      const other = await label(kind, probe.id, undefined, otherDoctor.session.token);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ status: 'not_found' });
      expect((await label(kind, 2_000_000_000)).statusCode).toBe(404);
    }
  });
});
