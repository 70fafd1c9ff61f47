import { ATTACHMENT_EXTENSIONS } from '@portal/shared';
import { isOfficeContainer } from './container-check.js';

export type AttachmentExtension = (typeof ATTACHMENT_EXTENSIONS)[number];

/** What the bytes must look like for each allowed extension (magic numbers via file-type). */
const expected: Record<AttachmentExtension, string | null> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  // Legacy Office files are OLE2 compound documents.
  doc: 'cfb',
  xls: 'cfb',
  rtf: 'rtf',
  // Plain text has no magic number: checked separately.
  txt: null,
};

const mimeTypes: Record<AttachmentExtension, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  rtf: 'application/rtf',
  txt: 'text/plain; charset=utf-8',
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
  if (want === null) return detected === undefined && looksLikeText(content) ? mimeTypes.txt : null;
  if (detected?.ext !== want) return null;
  // Any OLE2 container has the same magic bytes: its streams tell a document from an installer.
  if ((extension === 'doc' || extension === 'xls') && !isOfficeContainer(content, extension))
    return null;
  return mimeTypes[extension];
}
