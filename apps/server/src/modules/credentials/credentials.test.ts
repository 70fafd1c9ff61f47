import { eq } from 'drizzle-orm';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(async () => {
  await t?.close();
});

const sheet = {
  login: 'zofia.zolnierczyk@szpital.test',
  password: 'Abc23defGH45',
  kind: 'doctor',
  name: 'Zofia Żółnierczyk-Łęcka',
};

describe('POST /api/credentials/pdf', () => {
  it('renders a PDF with an embedded TrueType font, for an administrator and a doctor', async () => {
    for (const token of [admin.session.token, doctor.session.token]) {
      const res = await t.request('POST', '/api/credentials/pdf', { token, body: sheet });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('inline; filename="dane-logowania.pdf"');
      expect(res.headers['cache-control']).toBe('no-store');
      const pdf = res.rawPayload;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
      const text = pdf.toString('latin1');
      // An embedded TrueType font program (DejaVu carries the Polish letters).
      expect(text).toContain('/FontFile2');
      expect(text).toContain('DejaVuSans');
      expect(pdf.length).toBeGreaterThan(5_000);
    }
  });

  it('renders every kind, in English too', async () => {
    for (const kind of ['doctor', 'admin', 'patient', 'monitor']) {
      const res = await t.request('POST', '/api/credentials/pdf', {
        token: admin.session.token,
        body: { login: 'jan', password: 'Abc23defGH45', kind },
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, kind).toBe(200);
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('validates the body', async () => {
    const res = await t.request('POST', '/api/credentials/pdf', {
      token: admin.session.token,
      body: { login: '', kind: 'nurse' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        login: ['To pole musi być wypełnione'],
        password: ['To pole musi być wypełnione'],
        kind: ['Niektóre pola są nieprawidłowe'],
      },
    });
  });
});

function pdfText(pdf: Buffer): string {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  return document.loadPage(0).toStructuredText('preserve-whitespace').asText();
}

describe('the support number on the sheet', () => {
  const print = async (kind: string, locale = 'pl') =>
    pdfText(
      (
        await t.request('POST', '/api/credentials/pdf', {
          token: admin.session.token,
          body: { ...sheet, kind },
          headers: { 'accept-language': locale },
        })
      ).rawPayload,
    );

  it("is printed for doctors and patients once set, never on an administrator's sheet", async () => {
    await t.db.delete(settings).where(eq(settings.key, 'phone'));
    const before = await print('doctor');
    expect(before).toContain('zofia.zolnierczyk@szpital.test');
    expect(before).not.toContain('W razie problemów');

    const saved = await t.request('POST', '/api/settings/phone', {
      token: admin.session.token,
      body: { value: { courier: '600100200', support: '221112233' } },
    });
    expect(saved.statusCode).toBe(200);
    for (const kind of ['doctor', 'patient']) {
      expect(await print(kind)).toContain('W razie problemów: +48 221 112 233');
    }
    expect(await print('patient', 'en')).toContain('If you have any problems: +48 221 112 233');
    expect(await print('admin')).not.toContain('+48');
  });
});
