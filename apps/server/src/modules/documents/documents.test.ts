import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '@portal/shared';
import type { PanelDocumentList } from '@portal/shared';
import { auditEntries, files } from '../../db/schema.js';
import { createTestApp } from '../../test/harness.js';
import type { ReadyAdmin, ReadyDoctor, TestApp } from '../../test/harness.js';

let t: TestApp;
let admin: ReadyAdmin;
let doctor: ReadyDoctor;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const TXT = Buffer.from('Instrukcja pobrania krwi w domu: zażółć gęślą jaźń.\n');
/** A Windows program's first bytes: "MZ" and the DOS stub. */
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(120, 0)]);

function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer }) {
  const boundary = '----portal-documents-boundary';
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
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
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

const upload = (token: string, panel: string, name: string, content: Buffer) =>
  t.request('POST', '/api/files', {
    token,
    ...multipart({ ref_type: `${panel}_documents` }, { name, content }),
  });

const list = (token: string, panel: string) =>
  t.request('GET', `/api/settings/documents/${panel}`, { token });

const names = (res: { json: <T>() => T }) =>
  res.json<PanelDocumentList>().data.data.map((d) => d.original_name);

interface Saved {
  file: { id: number; original_name: string; ref_type: string; ref_id: number };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.readyAdmin();
  doctor = await t.readyDoctor((await t.unit()).id);
});
afterAll(() => t?.close());

describe('panel documents', () => {
  it('uploads a pdf and a txt to each panel and lists each panel newest first', async () => {
    const token = admin.session.token;
    for (const panel of ['doctor', 'patient']) {
      const pdf = await upload(token, panel, `Procedura ${panel}.pdf`, PDF);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.json<Saved>().file).toMatchObject({
        original_name: `Procedura ${panel}.pdf`,
        ref_type: `${panel}_documents`,
        ref_id: 0,
      });
      const txt = await upload(token, panel, `Instrukcja ${panel}.txt`, TXT);
      expect(txt.statusCode, txt.body).toBe(200);
    }
    const doctorPanel = await list(token, 'doctor');
    expect(doctorPanel.statusCode).toBe(200);
    expect(names(doctorPanel)).toEqual(['Instrukcja doctor.txt', 'Procedura doctor.pdf']);
    const [first] = doctorPanel.json<PanelDocumentList>().data.data;
    // Exactly the contract's fields (docs/api-conventions.md).
    expect(Object.keys(first!).sort()).toEqual(['created_at', 'id', 'original_name', 'size_bytes']);
    expect(first).toMatchObject({ original_name: 'Instrukcja doctor.txt', size_bytes: TXT.length });
    expect(first!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(names(await list(token, 'patient'))).toEqual([
      'Instrukcja patient.txt',
      'Procedura patient.pdf',
    ]);
    // Stored as the patient API reads them: no patient, ref_id 0.
    const stored = await t.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.ref_type, 'patient_documents'), isNull(files.patient_id)));
    expect(stored).toHaveLength(2);
  });

  it('refuses an exe renamed .pdf, a docx and a file over 20 MB, storing nothing', async () => {
    const token = admin.session.token;
    const before = names(await list(token, 'doctor'));
    const exe = await upload(token, 'doctor', 'regulamin.pdf', EXE);
    expect(exe.statusCode).toBe(422);
    expect(exe.json()).toEqual({
      status: 'validation_error',
      errors: { file: ['Nieprawidłowy rodzaj pliku'] },
    });
    // Attachments allow rtf; documents take txt and pdf only.
    const rtf = await upload(token, 'doctor', 'notatka.rtf', Buffer.from('{\\rtf1 tekst}'));
    expect(rtf.statusCode).toBe(422);
    const big = await upload(token, 'patient', 'duzy.txt', Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({
      status: 'validation_error',
      errors: { file: ['Plik jest za duży (maksymalnie 20 MB)'] },
    });
    expect(names(await list(token, 'doctor'))).toEqual(before);
  });

  it('downloads under the original name and deletes', async () => {
    const token = admin.session.token;
    const saved = (await upload(token, 'doctor', 'Zgoda – żółć.pdf', PDF)).json<Saved>();
    const download = await t.request('GET', `/api/files/${saved.file.id}`, { token });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Zgoda _ zolc.pdf"; filename*=UTF-8''${encodeURIComponent('Zgoda – żółć.pdf')}`,
    );
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const removed = await t.request('DELETE', `/api/files/${saved.file.id}`, { token });
    expect(removed.json()).toEqual({ status: 'success' });
    expect((await t.request('GET', `/api/files/${saved.file.id}`, { token })).statusCode).toBe(404);
    expect(names(await list(token, 'doctor'))).not.toContain('Zgoda – żółć.pdf');
  });

  it('lets a doctor read the doctor panel only, never change it', async () => {
    const token = doctor.session.token;
    const adminToken = admin.session.token;
    const doctorDoc = (await upload(adminToken, 'doctor', 'dla-lekarzy.txt', TXT)).json<Saved>();
    const patientDoc = (
      await upload(adminToken, 'patient', 'dla-pacjentow.txt', TXT)
    ).json<Saved>();

    const readable = await list(token, 'doctor');
    expect(readable.statusCode).toBe(200);
    expect(names(readable)).toContain('dla-lekarzy.txt');
    const download = await t.request('GET', `/api/files/${doctorDoc.file.id}`, { token });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(TXT.toString());

    expect((await list(token, 'patient')).statusCode).toBe(403);
    expect((await t.request('GET', `/api/files/${patientDoc.file.id}`, { token })).statusCode).toBe(
      403,
    );
    for (const panel of ['doctor', 'patient']) {
      const res = await upload(token, panel, 'moje.pdf', PDF);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 'forbidden' });
    }
    for (const id of [doctorDoc.file.id, patientDoc.file.id]) {
      expect((await t.request('DELETE', `/api/files/${id}`, { token })).statusCode).toBe(403);
    }
    // Still there for the administrator.
    expect(names(await list(adminToken, 'patient'))).toContain('dla-pacjentow.txt');
    // Panel documents are not a patient's files: the patients' file list does not take them.
    const asPatientFiles = await t.request('GET', '/api/files', {
      token: adminToken,
      query: { ref_type: 'doctor_documents', ref_id: '0' },
    });
    expect(asPatientFiles.statusCode).toBe(422);
  });

  it('answers 404 to an unknown panel and 401 without a token', async () => {
    for (const panel of ['admin', 'doctors', 'patient_documents', '1']) {
      const res = await list(admin.session.token, panel);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 'not_found' });
    }
    expect((await t.request('GET', '/api/settings/documents/doctor')).statusCode).toBe(401);
  });

  it('keeps the audit trail working for files of no patient', async () => {
    const token = admin.session.token;
    const saved = (await upload(token, 'patient', 'audyt.txt', TXT)).json<Saved>();
    await t.request('DELETE', `/api/files/${saved.file.id}`, { token });
    const entries = await t.db
      .select({ patientId: auditEntries.patient_id, operation: auditEntries.operation })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.entity_name, 'files'),
          eq(auditEntries.entity_id, String(saved.file.id)),
        ),
      );
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.patientId === null)).toBe(true);
  });

  it('still needs ref_id for a patient attachment', async () => {
    const res = await t.request('POST', '/api/files', {
      token: admin.session.token,
      ...multipart({ ref_type: 'patient' }, { name: 'wynik.pdf', content: PDF }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('ref_id');
  });
});
