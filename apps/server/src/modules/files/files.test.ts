import * as CFB from 'cfb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '@portal/shared';
import { createTestApp } from '../../test/harness.js';
import type { ReadyDoctor, TestApp } from '../../test/harness.js';
import { registerPatient } from '../../test/patients-fixture.js';
import { checkAttachment } from './content-check.js';
import { MAX_FILE_NAME_BYTES, cleanFileName } from './file-name.js';

let t: TestApp;
let doctor: ReadyDoctor;
let otherDoctor: ReadyDoctor;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const RTF = Buffer.from('{\\rtf1\\ansi Zażółć gęślą jaźń}');

/** A small OLE2 container with these streams (paths from its root), as Office or msiexec reads it. */
function container(...streams: string[]): Buffer {
  const cfb = CFB.utils.cfb_new();
  for (const stream of streams) CFB.utils.cfb_add(cfb, stream, Buffer.from('dane'));
  return CFB.write(cfb, { type: 'buffer' }) as Buffer;
}

const DOC = container('/WordDocument', '/1Table', '/\x05SummaryInformation');
const XLS = container('/Workbook', '/\x05SummaryInformation');

/** A multipart body as a browser sends it. */
function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer; type?: string },
) {
  const boundary = '----portal-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  token: string,
  patientId: number,
  name: string,
  content: Buffer,
  comment = '',
) {
  const { body, headers } = multipart(
    { ref_type: 'patient', ref_id: String(patientId), comment },
    { name, content },
  );
  return t.request('POST', '/api/files', { token, body, headers });
}

beforeAll(async () => {
  t = await createTestApp();
  doctor = await t.readyDoctor((await t.unit()).id);
  otherDoctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('content check', () => {
  it.each([
    ['wynik.pdf', PDF, 'application/pdf'],
    ['notatka.rtf', RTF, 'application/rtf'],
    ['notatka.txt', Buffer.from('Zażółć gęślą jaźń'), 'text/plain; charset=utf-8'],
  ])('accepts %s whose content matches', async (name, content, mime) => {
    expect(await checkAttachment(name, content)).toBe(mime);
  });

  it.each([
    ['wynik.pdf', Buffer.from('not a pdf at all')],
    ['skrypt.exe', Buffer.from('MZ\x90\x00')],
    ['obraz.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
    ['pusty.pdf', Buffer.alloc(0)],
    ['udaje.docx', PDF],
  ])('refuses %s', async (name, content) => {
    expect(await checkAttachment(name, content)).toBeNull();
  });

  it.each([
    ['raport.doc', DOC, 'application/msword'],
    ['tabela.xls', XLS, 'application/vnd.ms-excel'],
    ['stary.xls', container('/Book'), 'application/vnd.ms-excel'],
  ])('accepts the OLE2 document %s by its streams', async (name, content, mime) => {
    expect(await checkAttachment(name, content)).toBe(mime);
  });

  it.each([
    // An installer: MSI keeps its tables in streams with encoded names, none of Office's.
    ['instalator.doc', container('/\u4840\u3f3f\u4577', '/\x05SummaryInformation')],
    ['instalator.xls', container('/\u4840\u3b3f\u43f2')],
    ['makro.doc', container('/WordDocument', '/Macros/VBA/dir', '/Macros/PROJECT')],
    ['makro.xls', container('/Workbook', '/_VBA_PROJECT_CUR/VBA/dir')],
    ['arkusz-jako.doc', XLS],
    ['dokument-jako.xls', DOC],
    ['pusty.doc', container()],
    ['uciety.doc', DOC.subarray(0, 700)],
  ])('refuses the OLE2 container %s', async (name, content) => {
    expect(await checkAttachment(name, content)).toBeNull();
  });
});

describe('file names', () => {
  it('strips format and control characters and keeps the last path segment', () => {
    expect(cleanFileName('C:\\fakepath\\wynik.pdf')).toBe('wynik.pdf');
    expect(cleanFileName('faktura\u202Efdp.exe')).toBe('fakturafdp.exe');
    expect(cleanFileName('wy\u200Bnik\u2066\u00AD.pdf')).toBe('wynik.pdf');
    expect(cleanFileName('linia\r\n\tdruga\u0007.txt')).toBe('liniadruga.txt');
    // Decomposed (macOS) Polish letters are stored composed.
    expect(cleanFileName('z\u0307o\u0301\u0142c\u0301.pdf')).toBe('żółć.pdf');
  });

  it('shortens a long name to 255 bytes of UTF-8 without losing the extension', () => {
    const long = cleanFileName(`${'ż'.repeat(300)}.docx`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(long).toBe(`${'ż'.repeat(125)}.docx`);
    const emoji = cleanFileName(`${'a'}${'😀'.repeat(100)}.pdf`);
    expect(emoji.endsWith('😀.pdf')).toBe(true);
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(cleanFileName('krótka.pdf')).toBe('krótka.pdf');
  });
});

describe('attachments', () => {
  it('uploads, lists, downloads under the original name and deletes', async () => {
    const patient = await registerPatient(t, doctor);
    const res = await upload(
      doctor.session.token,
      patient.id,
      'Wyniki badań – żółć.pdf',
      PDF,
      '<p>Badanie <em>kontrolne</em><script>x</script></p>',
    );
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json<{
      status: string;
      file: { id: number; original_name: string; comment: string; size_bytes: number };
    }>();
    expect(file).toMatchObject({
      status: 'success',
      file: {
        original_name: 'Wyniki badań – żółć.pdf',
        comment: '<p>Badanie <em>kontrolne</em></p>',
        size_bytes: PDF.length,
      },
    });

    const list = (
      await t.request('GET', '/api/files', {
        token: doctor.session.token,
        query: { ref_type: 'patient', ref_id: String(patient.id) },
      })
    ).json<{ data: { id: number }[] }>();
    expect(list.data.map((f) => f.id)).toEqual([file.file.id]);

    const download = await t.request('GET', `/api/files/${file.file.id}`, {
      token: doctor.session.token,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Wyniki badan _ zolc.pdf"; filename*=UTF-8''${encodeURIComponent('Wyniki badań – żółć.pdf')}`,
    );
    expect(download.rawPayload.equals(PDF)).toBe(true);

    expect(
      (await t.request('GET', `/api/files/${file.file.id}`, { token: otherDoctor.session.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.request('DELETE', `/api/files/${file.file.id}`, {
          token: otherDoctor.session.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request('DELETE', `/api/files/${file.file.id}`, { token: doctor.session.token })
      ).json(),
    ).toEqual({ status: 'success' });
    expect(
      (await t.request('GET', `/api/files/${file.file.id}`, { token: doctor.session.token }))
        .statusCode,
    ).toBe(404);
  });

  it('stores and sends back a cleaned, shortened name', async () => {
    const patient = await registerPatient(t, doctor);
    const token = doctor.session.token;
    const res = await upload(
      token,
      patient.id,
      `wynik\u202Efdp.exe\u200B${'x'.repeat(300)}.pdf`,
      PDF,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { file } = res.json<{ file: { id: number; original_name: string } }>();
    expect(file.original_name).toBe(`wynikfdp.exe${'x'.repeat(255 - 12 - 4)}.pdf`);
    const download = await t.request('GET', `/api/files/${file.id}`, { token });
    expect(download.headers['content-disposition']).not.toMatch(/%E2%80%AE|%E2%80%8B/);
    expect(download.headers['content-disposition']).toContain('.pdf"');

    const installer = await upload(token, patient.id, 'pismo.doc', container('/\u4840\u3f3f'));
    expect(installer.statusCode).toBe(422);
    const macro = await upload(
      token,
      patient.id,
      'pismo.doc',
      container('/WordDocument', '/Macros/VBA/dir'),
    );
    expect(macro.statusCode).toBe(422);
    expect((await upload(token, patient.id, 'pismo.doc', DOC)).statusCode).toBe(200);
  });

  it("refuses a file whose content does not match its extension, with the contract's message", async () => {
    const patient = await registerPatient(t, doctor);
    const res = await upload(
      doctor.session.token,
      patient.id,
      'faktura.pdf',
      Buffer.from('<html>phishing</html>'),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: { file: ['Nieprawidłowy rodzaj pliku'] },
    });
    const list = (
      await t.request('GET', '/api/files', {
        token: doctor.session.token,
        query: { ref_type: 'patient', ref_id: String(patient.id) },
      })
    ).json<{ data: unknown[] }>();
    expect(list.data).toHaveLength(0);
  });

  it("refuses an upload without a file and one for another unit's patient", async () => {
    const patient = await registerPatient(t, doctor);
    const { body, headers } = multipart({ ref_type: 'patient', ref_id: String(patient.id) });
    const res = await t.request('POST', '/api/files', {
      token: doctor.session.token,
      body,
      headers,
    });
    expect(res.statusCode).toBe(422);
    expect((await upload(otherDoctor.session.token, patient.id, 'a.pdf', PDF)).statusCode).toBe(
      404,
    );
  });

  it('refuses a file over 20 MB and bad fields, storing nothing', async () => {
    const patient = await registerPatient(t, doctor);
    const token = doctor.session.token;
    const big = await upload(token, patient.id, 'duzy.txt', Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({
      status: 'validation_error',
      errors: { file: ['Plik jest za duży (maksymalnie 20 MB)'] },
    });

    const bad = multipart(
      { ref_type: 'probe', ref_id: 'abc' },
      { name: 'wynik.pdf', content: PDF },
    );
    const res = await t.request('POST', '/api/files', { token, ...bad });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: 'validation_error',
      errors: {
        ref_type: ['Niektóre pola są nieprawidłowe'],
        ref_id: ['To pole musi być wypełnione'],
      },
    });

    const list = await t.request('GET', '/api/files', {
      token,
      query: { ref_type: 'patient', ref_id: String(patient.id) },
    });
    expect(list.json<{ data: unknown[] }>().data).toHaveLength(0);
  });
});
