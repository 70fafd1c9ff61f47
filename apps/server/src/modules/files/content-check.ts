import { ATTACHMENT_EXTENSIONS, ECG_FILE_EXTENSIONS } from '@portal/shared';
import { isOfficeContainer } from './container-check.js';

export type AttachmentExtension =
  | (typeof ATTACHMENT_EXTENSIONS)[number]
  | (typeof ECG_FILE_EXTENSIONS)[number];

/** What the bytes must look like for each allowed extension (magic numbers via file-type). */
const expected: Record<AttachmentExtension, string | null> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  // Legacy Office files are OLE2 compound documents.
  doc: 'cfb',
  xls: 'cfb',
  rtf: 'rtf',
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  // Plain text and XML have no reliable magic number: checked separately.
  txt: null,
  xml: null,
};

const mimeTypes: Record<AttachmentExtension, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  rtf: 'application/rtf',
  txt: 'text/plain; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  xml: 'application/xml',
};

function looksLikeText(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    // Older Polish text files are often Windows-1250: accept text without control bytes.
    return !content.some((b) => b < 0x09 || (b > 0x0d && b < 0x20));
  }
}

/**
 * An electrocardiograph's XML export (HL7 aECG or a vendor's): text whose first markup is an XML
 * declaration or an element. A DOCTYPE (entity tricks) and markup a browser would run (HTML,
 * SVG) are refused, although the file is only ever downloaded as an attachment.
 */
function looksLikeXml(content: Buffer): boolean {
  if (!looksLikeText(content)) return false;
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(text)) return false;
  const body = text.trimStart().replace(/^<\?xml[^>]*\?>\s*/, '');
  const root = /^(?:<!--[\s\S]*?-->\s*|<\?[\s\S]*?\?>\s*)*<([A-Za-z_][\w.:-]*)/.exec(body);
  if (!root) return false;
  const local = root[1]!.split(':').pop()!.toLowerCase();
  return local !== 'html' && local !== 'svg';
}

/**
 * The MIME type to store for an upload whose name and content agree, or null when the extension
 * is not allowed or the content is not what the name claims.
 */
export async function checkAttachment(
  fileName: string,
  content: Buffer,
  allowed: readonly AttachmentExtension[] = ATTACHMENT_EXTENSIONS,
): Promise<string | null> {
  const extension = fileName.toLowerCase().split('.').pop() as AttachmentExtension | undefined;
  if (!extension || !allowed.includes(extension) || content.length === 0) return null;
  // Loaded on the first upload rather than at every start (ADR 020).
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(content);
  const want = expected[extension];
  if (extension === 'xml') return looksLikeXml(content) ? mimeTypes.xml : null;
  if (want === null) return detected === undefined && looksLikeText(content) ? mimeTypes.txt : null;
  if (detected?.ext !== want) return null;
  // Any OLE2 container has the same magic bytes: its streams tell a document from an installer.
  if ((extension === 'doc' || extension === 'xls') && !isOfficeContainer(content, extension))
    return null;
  return mimeTypes[extension];
}
