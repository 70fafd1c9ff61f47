import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeDataMatrix,
  inkBox,
  pdfPageToGrey,
  pngToGrey,
  renderZpl,
} from '../../test/barcodes.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { insertProbe } from '../../test/probe-fixture.js';
import {
  codeLayout,
  dataMatrixPng,
  labelHeading,
  labelZpl,
  splitCode,
  zplFieldData,
} from './label-service.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;
let probe: { id: number; code: string };
let patientId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
  const patient = await registerPatient(t, doctor);
  patientId = patient.id;
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

/** The DataMatrix of a PDF page: the left square of the label, where the code is drawn. */
function decodePdfPage(pdf: Buffer, pageIndex: number): string {
  const page = pdfPageToGrey(pdf, pageIndex);
  return decodeDataMatrix(page, { x0: 0, y0: 0, x1: page.height, y1: page.height });
}

/** A unique code of `length` characters made of `pattern` repeated after a per-run prefix. */
function codeOf(length: number, pattern: string): string {
  const prefix = `Q${(Date.now() % 1_000_000).toString(36).toUpperCase()}`;
  return (prefix + pattern.repeat(length)).slice(0, length);
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
    expect(decodePdfPage(pdf, 0)).toBe(probe.code);
    expect(decodePdfPage(pdf, 2)).toBe(probe.code);
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
    expect(none.json()).toEqual({
      status: 'validation_error',
      errors: { amount: ['Plik PDF musi mieć co najmniej jedną etykietę: podaj liczbę od 1'] },
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

  it('says the range when the amount is out of it, in the caller language', async () => {
    for (const kind of ['zpl', 'pdf'] as const) {
      const pl = await label(kind, probe.id, { amount: '11' });
      expect(pl.json()).toEqual({
        status: 'validation_error',
        errors: { amount: ['Liczba etykiet musi być od 0 do 10'] },
      });
      const en = await t.request('GET', `/api/probes/${probe.id}/label.${kind}`, {
        token: doctor.session.token,
        query: { amount: '-1' },
        headers: { 'accept-language': 'en' },
      });
      expect(en.json()).toEqual({
        status: 'validation_error',
        errors: { amount: ['The number of labels must be from 0 to 10'] },
      });
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

describe('labels that print whole (ADR 035)', () => {
  it('breaks a long code at its own separators, else in the middle, never past the column', () => {
    expect(splitCode('KFDC-KARDIO-20263122ZP', 13)).toEqual(['KFDC-KARDIO-', '20263122ZP']);
    expect(splitCode('AB-CDEFGHIJKLMNOPQR', 13)).toEqual(['AB-CDEFGHI', 'JKLMNOPQR']);
    expect(splitCode('K12', 13)).toEqual(['K12']);
    expect(splitCode('X'.repeat(27), 13)).toBeNull();
    // Every length up to 32 gets a layout of at most two lines, each within the text column.
    for (let length = 1; length <= 32; length++) {
      for (const code of ['W'.repeat(length), 'A-'.repeat(length).slice(0, length)]) {
        const { font, lines } = codeLayout(code);
        expect(lines.join('')).toBe(code);
        expect(lines.length).toBeLessThanOrEqual(2);
        for (const line of lines) expect(line.length * font.cell).toBeLessThanOrEqual(216);
      }
    }
  });

  // A renderer of its own (Zebrash) and ZXing: what a printer would print and a scanner read.
  it.each([
    ['short', 'K12'],
    ['16 characters', codeOf(16, 'W7')],
    ['16 characters with separators', codeOf(16, '-AB')],
    ['32 characters', codeOf(32, 'Wm')],
    ['32 characters with separators', codeOf(32, 'KARDIO-')],
  ])(
    'renders a %s code whose DataMatrix reads as the code and whose text stays on the label',
    async (_, code) => {
      const own = await insertProbe(t.db, doctor.session.user.id, patientId, {
        code: code === 'K12' ? codeOf(8, 'K12') : code,
        type_of_material: 'venous',
        collect_place: 'clinic',
      });
      const res = await label('zpl', own.id);
      expect(res.statusCode).toBe(200);
      // The label alone (50 × 25 mm at 8 dots per mm), then on a wider canvas.
      const [image] = await renderZpl(res.body, 50, 25);
      expect(image!.width).toBe(400);
      expect(decodeDataMatrix(image!, { x0: 0, y0: 0, x1: 172, y1: 200 })).toBe(own.code);
      const text = inkBox(image!, { x0: 172, y0: 0, x1: 400, y1: 200 });
      // The text ends before the right margin: a cut line would run into the label's edge.
      expect(text!.x1).toBeLessThan(396);
      expect(text!.y1).toBeLessThan(196);
      // Nothing beyond the label either, when the renderer has room to draw it.
      const [wide] = await renderZpl(res.body, 70, 25);
      const offset = (wide!.width - 400) / 2;
      expect(inkBox(wide!, { x0: offset + 400, y0: 0, x1: wide!.width, y1: 200 })).toBeNull();
      // At most two lines, each a piece of the code, no hyphen added.
      const lines = [...res.body.matchAll(/\^A[DF]N,\d+,\d+\^FH\^FD([^^]*)\^FS/g)].map((m) => m[1]);
      expect(lines.length).toBeLessThanOrEqual(2);
      expect(lines.join('')).toBe(own.code);
    },
    30_000,
  );

  it('gives the PDF the same DataMatrix: the PNG bwip-js makes decodes as the code', async () => {
    for (const code of ['K12', codeOf(16, 'W7'), codeOf(32, 'Wm')]) {
      expect(decodeDataMatrix(pngToGrey(await dataMatrixPng(code)))).toBe(code);
    }
    const long = await insertProbe(t.db, doctor.session.user.id, patientId, {
      code: codeOf(32, 'KARDIO-'),
    });
    const res = await label('pdf', long.id);
    expect(decodePdfPage(res.rawPayload, 0)).toBe(long.code);
    const text = mupdf.Document.openDocument(res.rawPayload, 'application/pdf')
      .loadPage(0)
      .toStructuredText('preserve-whitespace')
      .asText()
      .replace(/\s+/g, '');
    expect(text).toContain(long.code);
    // The text stays on the page.
    const page = pdfPageToGrey(res.rawPayload, 0);
    expect(inkBox(page)!.x1).toBeLessThan(page.width - 8);
  });
});
