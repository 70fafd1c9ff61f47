import { DOCUMENT_EXTENSIONS, DOCUMENT_REF_TYPES, ECG_FILE_EXTENSIONS } from '@portal/shared';
import type { DocumentRefType, FileRefType, FileView, PatientFileRefType } from '@portal/shared';
import { and, desc, eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { files } from '../../db/schema.js';
import { forbidden, invalid, notFound } from '../../lib/errors.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import { can } from '../../plugins/policy.js';
import type { Actor } from '../../plugins/policy.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';
import { findReachableVisit } from '../../policies/visits.js';
import { checkAttachment } from './content-check.js';
import { cleanFileName } from './file-name.js';

const listed = {
  id: files.id,
  original_name: files.original_name,
  mime_type: files.mime_type,
  size_bytes: files.size_bytes,
  comment: files.comment,
  ref_type: files.ref_type,
  ref_id: files.ref_id,
  patient_id: files.patient_id,
  created_at: files.created_at,
  updated_at: files.updated_at,
};

type ListedRow = { created_at: Date; updated_at: Date; patient_id: number | null } & Omit<
  FileView,
  'created_at' | 'updated_at'
>;

function present({ patient_id: _p, ...row }: ListedRow): FileView {
  return {
    ...row,
    // Names stored before the cleaning existed are cleaned on the way out too.
    original_name: cleanFileName(row.original_name),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * What a file hangs on, reached by the actor (404 otherwise), with the patient it belongs to:
 * the file's `patient_id`, so that the audit trail records it under that patient. A visit's
 * files need the visits permission besides the route's patients one.
 */
async function reachRef(
  db: Database,
  actor: Actor,
  refType: PatientFileRefType,
  refId: number,
  change: boolean,
): Promise<number> {
  if (refType === 'patient') {
    await (change ? findChangeablePatient : findReachablePatient)(db, actor, refId);
    return refId;
  }
  if (!can(actor, change ? 'visits.write' : 'visits.read')) throw forbidden();
  const visit = await findReachableVisit(db, actor, refId);
  await (change ? findChangeablePatient : findReachablePatient)(db, actor, visit.patient_id);
  return visit.patient_id;
}

/** A patient's attachments or a visit's ECG files, newest first. */
export async function listFiles(
  db: Database,
  actor: Actor,
  refType: PatientFileRefType,
  refId: number,
) {
  const patientId = await reachRef(db, actor, refType, refId, false);
  const rows = await db
    .select(listed)
    .from(files)
    .where(and(eq(files.ref_type, refType), eq(files.ref_id, refId)))
    .orderBy(desc(files.created_at), desc(files.id));
  return { data: rows.map(present), patientId };
}

export const listPatientFiles = (db: Database, actor: Actor, patientId: number) =>
  listFiles(db, actor, 'patient', patientId);

export interface Upload {
  fileName: string;
  content: Buffer;
  comment: string | null;
  /** The patient or visit; absent for a panel's document. */
  refId?: number | undefined;
  /** A patient's attachment (the default), a visit's ECG file or a panel's document. */
  refType?: FileRefType;
}

export const isDocumentRefType = (refType: string): refType is DocumentRefType =>
  (DOCUMENT_REF_TYPES as readonly string[]).includes(refType);

/**
 * A panel's documents are managed by administrators only (settings.manage); the doctor panel's
 * are read by whoever holds documents.read. They belong to no patient: 403, never 404.
 */
function reachDocument(actor: Actor, refType: DocumentRefType, change: boolean) {
  const needed = change || refType === 'patient_documents' ? 'settings.manage' : 'documents.read';
  if (!can(actor, needed)) throw forbidden();
}

/**
 * Stores a patient attachment, a visit's ECG file or a panel's document whose content matches
 * its extension (checked by magic bytes; each kind has its own list of extensions). A document
 * hangs on no patient (patient_id null, ref_id 0).
 */
export async function uploadPatientFile(
  db: Database,
  actor: Actor,
  upload: Upload,
): Promise<FileView> {
  const refType = upload.refType ?? 'patient';
  let patientId: number | null = null;
  let refId = 0;
  if (isDocumentRefType(refType)) reachDocument(actor, refType, true);
  else {
    if (upload.refId === undefined) throw invalid({ ref_id: ['required'] });
    refId = upload.refId;
    patientId = await reachRef(db, actor, refType, refId, true);
  }
  const fileName = cleanFileName(upload.fileName);
  const mimeType = await checkAttachment(
    fileName,
    upload.content,
    refType === 'visit'
      ? ECG_FILE_EXTENSIONS
      : isDocumentRefType(refType)
        ? DOCUMENT_EXTENSIONS
        : undefined,
  );
  if (!mimeType) throw invalid({ file: ['invalid_file_type'] });
  const comment = upload.comment ? sanitizeRichText(upload.comment) : '';
  const row = await inTransaction(db, actor.userId, async (tx) => {
    const [inserted] = await tx
      .insert(files)
      .values({
        ref_type: refType,
        ref_id: refId,
        patient_id: patientId,
        original_name: fileName,
        mime_type: mimeType,
        size_bytes: upload.content.length,
        content: upload.content,
        comment: comment && !isBlankRichText(comment) ? comment : null,
        uploaded_by: actor.userId,
      })
      .returning(listed);
    return inserted!;
  });
  return present(row);
}

async function findReachableFile(db: Database, actor: Actor, id: number, change = false) {
  const [row] = await db
    .select({ patientId: files.patient_id, refType: files.ref_type, refId: files.ref_id })
    .from(files)
    .where(eq(files.id, id));
  if (!row) throw notFound();
  // A panel's document belongs to no patient: its panel decides.
  if (isDocumentRefType(row.refType)) return reachDocument(actor, row.refType, change);
  if (!row.patientId) throw notFound();
  // A visit's file is reached through its visit (the visit's unit, not cancelled).
  if (row.refType === 'visit') await reachRef(db, actor, 'visit', row.refId, change);
  else await (change ? findChangeablePatient : findReachablePatient)(db, actor, row.patientId);
}

export async function downloadFile(db: Database, actor: Actor, id: number) {
  await findReachableFile(db, actor, id);
  const [row] = await db
    .select({
      name: files.original_name,
      mimeType: files.mime_type,
      content: files.content,
      patientId: files.patient_id,
    })
    .from(files)
    .where(eq(files.id, id));
  if (!row) throw notFound();
  return row;
}

export async function deleteFile(db: Database, actor: Actor, id: number) {
  await findReachableFile(db, actor, id, true);
  await inTransaction(db, actor.userId, (tx) => tx.delete(files).where(eq(files.id, id)));
}

/** `attachment` with the original (possibly Polish) name, RFC 6266 / 5987. */
export function contentDisposition(stored: string): string {
  const name = cleanFileName(stored) || 'plik';
  // Old clients read only the ASCII name: drop diacritics ("żółć" -> "zolc"), mask the rest.
  const fallback = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
