import { ATTACHMENT_EXTENSIONS, MAX_FILE_BYTES } from '@portal/shared';

export type AttachmentProblem = 'invalid_type' | 'too_large';

/** The extension in lower case ('Wyniki.PDF' -> 'pdf'), or '' without one. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The client-side check of an attachment (docs/product-rules.md "Validation": xls, xlsx, pdf, doc,
 * docx, txt, rtf; 20 MB).
 * The server checks the content as well; this only spares the user a useless upload.
 */
export function attachmentProblem(file: { name: string; size: number }): AttachmentProblem | null {
  if (!(ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
    return 'invalid_type';
  }
  if (file.size > MAX_FILE_BYTES) return 'too_large';
  return null;
}

/** What the Dropzone's file picker offers: the allowed extensions under their usual types. */
export const ATTACHMENT_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.ms-excel': ['.xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'text/plain': ['.txt'],
  'application/rtf': ['.rtf'],
  'text/rtf': ['.rtf'],
};
