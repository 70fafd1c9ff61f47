import { z } from 'zod';
import { AUDIT_SOURCES, REASON_CODES } from '../audit.js';
import { MAX_PAGE_SIZE } from '../constants.js';
import { dayField, idField, idListField, multilineText, queryIdField } from '../validation.js';
import { recordAbilities, recordVersion, totalKind, versionField } from './common.js';
import { auditReason } from './records.js';

/** Rich text (notes, comments, messages) is sanitised on the server before it is stored. */
export const RICH_TEXT_MAX = 100_000;
export const richText = () =>
  multilineText({ max: RICH_TEXT_MAX, error: 'required' }).min(1, { error: 'required' });

export const noteBody = z.object({
  content: richText(),
  ref_type: z.literal('patient').default('patient'),
  ref_id: idField(),
});
export const note = z.object({
  id: z.number().int(),
  content: z.string(),
  author: z.object({ firstname: z.string(), surname: z.string(), login: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  ref_type: z.string(),
  ref_id: z.number().int(),
  version: recordVersion,
  /** Notes are not edited (no such call): `edit` is always false; `delete` the own, or any (ADR 045). */
  abilities: recordAbilities,
});
export type Note = z.infer<typeof note>;
export const noteList = z.object({ data: z.array(note) });
export const noteSaved = z.object({ status: z.literal('success'), note });
export type NoteSaved = z.infer<typeof noteSaved>;

/** Attachments: extensions allowed (docs/product-rules.md "Fixed orders and words"); the content is checked too, not only the name. */
export const ATTACHMENT_EXTENSIONS = ['xls', 'xlsx', 'pdf', 'doc', 'docx', 'txt', 'rtf'] as const;
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/**
 * ECG files of a visit (docs/product-rules.md "Recording a visit"): the printed or scanned tracing
 * (PDF, PNG, JPEG) and the electrocardiograph's own export (HL7 aECG or vendor XML), checked by
 * content too.
 */
export const ECG_FILE_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'xml'] as const;
/** What a patient's file hangs on: the patient (attachments) or a visit (ECG files). */
export const PATIENT_FILE_REF_TYPES = ['patient', 'visit'] as const;
export type PatientFileRefType = (typeof PATIENT_FILE_REF_TYPES)[number];

/** The panels with documents of their own (docs/product-rules.md "Files"). */
export const DOCUMENT_PANELS = ['doctor', 'patient'] as const;
export type DocumentPanel = (typeof DOCUMENT_PANELS)[number];
/** A panel's documents are files of ref_type `{panel}_documents`, tied to no patient. */
export const DOCUMENT_REF_TYPES = ['doctor_documents', 'patient_documents'] as const;
export type DocumentRefType = (typeof DOCUMENT_REF_TYPES)[number];
export const documentRefType = (panel: DocumentPanel): DocumentRefType => `${panel}_documents`;
/**
 * Documents upload (docs/product-rules.md "Validation"): txt and pdf, one file, checked by content
 * too.
 */
export const DOCUMENT_EXTENSIONS = ['pdf', 'txt'] as const;

/** What a file hangs on: a patient, a visit or a panel. */
export const FILE_REF_TYPES = [...PATIENT_FILE_REF_TYPES, ...DOCUMENT_REF_TYPES] as const;
export type FileRefType = (typeof FILE_REF_TYPES)[number];

/**
 * The text fields of `POST /api/files` (multipart, beside the `file` part). A patient's or a
 * visit's file names its owner in `ref_id` (the service answers its absence as required); a
 * panel's document has none.
 */
export const fileUploadFields = z.object({
  ref_type: z.enum(FILE_REF_TYPES, { error: 'invalid' }).default('patient'),
  ref_id: queryIdField('required').optional(),
  comment: multilineText({ max: RICH_TEXT_MAX, trim: false }).optional(),
});
export type FileUploadFields = z.infer<typeof fileUploadFields>;

export const fileView = z.object({
  id: z.number().int(),
  original_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  comment: z.string().nullable(),
  ref_type: z.string(),
  ref_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FileView = z.infer<typeof fileView>;
export const fileList = z.object({ data: z.array(fileView) });
export const fileSaved = z.object({ status: z.literal('success'), file: fileView });
export type FileSaved = z.infer<typeof fileSaved>;

/** One of a panel's documents (`GET /api/settings/documents/{panel}`). */
export const panelDocument = z.object({
  id: z.number().int(),
  original_name: z.string(),
  created_at: z.string(),
  size_bytes: z.number().int(),
});
export type PanelDocument = z.infer<typeof panelDocument>;
/** The contract's shape: `data.data`, newest first. */
export const panelDocumentList = z.object({
  data: z.object({ data: z.array(panelDocument) }),
});
export type PanelDocumentList = z.infer<typeof panelDocumentList>;

export const messageBody = z.object({
  content: richText(),
  receiver_user_id: idField(),
});
export const messageUpdateBody = z.object({ content: richText(), version: versionField() });
export type MessageUpdateBody = z.infer<typeof messageUpdateBody>;
export const messageQuery = z.object({ user_id: queryIdField() });
export const patientMessage = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
  sender: z.object({
    firstname: z.string().nullable(),
    surname: z.string().nullable(),
    role: z.string(),
  }),
  /** Who sent it: a doctor edits and deletes only the own messages. */
  sender_user_id: z.number().int(),
  receiver_user_id: z.number().int(),
  version: recordVersion,
  /** Edit and delete: the own (or any, administrators), unread, of a patient not deleted (ADR 045). */
  abilities: recordAbilities,
});
export type PatientMessage = z.infer<typeof patientMessage>;
export const patientMessageList = z.object({ data: z.array(patientMessage) });
export const patientMessageSaved = z.object({ status: z.literal('success'), data: patientMessage });
export type PatientMessageSaved = z.infer<typeof patientMessageSaved>;

const idList = idListField().optional();

export const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  page: z.coerce.number().int().min(1).default(1),
  doctorIds: idList,
  patientIds: idList,
  from_date: dayField().optional(),
  to_date: dayField().optional(),
  /** Entries with this reason for change, or with any reason (ADR 048). */
  reason: z.enum([...REASON_CODES, 'any']).optional(),
  /**
   * Keyset paging (ADR 022), as the read log's: the page of entries older than the entry with this
   * id (newest first), or the page newer than it; either replaces `page`'s offset, so a deep page
   * costs what the first does. `page` alone keeps working.
   */
  after: queryIdField().optional(),
  before: queryIdField().optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;
export const auditEntry = z.object({
  id: z.number().int(),
  updated_at: z.string(),
  /** The acting user: `name` is the doctor's or patient's name, the login for an administrator. */
  user: z.object({ login: z.string().nullable(), name: z.string().nullable() }),
  /** What wrote the change when no person did, or how (ADR 042); null for a person's own edit. */
  source: z.enum(AUDIT_SOURCES).nullable(),
  /** The changed record as a reader knows it (a sample's code, a medicine, …); null when none. */
  record: z.string().nullable(),
  patient: z
    .object({ id: z.number().int(), firstname: z.string(), surname: z.string() })
    .nullable(),
  entity_name: z.string(),
  column_name: z.string(),
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  /** The names behind the values of a column holding an id (a user, a unit, a medicine, …). */
  old_name: z.string().nullable(),
  new_name: z.string().nullable(),
  operation: z.string(),
  /** The reason for change written with the entry (ADR 048); null when none. */
  reason: auditReason,
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditList = z.object({
  data: z.array(auditEntry),
  total: z.number().int(),
  total_kind: totalKind,
});
