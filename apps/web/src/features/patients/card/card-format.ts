import { ATTACHMENT_EXTENSIONS, MAX_FILE_BYTES } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';

/**
 * "Firstname Surname" of a note's author or a message's sender. Administrators have no name in
 * the portal, so an empty result means the spec's 'Administrator' (the caller's fallback).
 */
export function personName(
  person: { firstname?: string | null; surname?: string | null } | null | undefined,
  fallback: string,
): string {
  const name = `${person?.firstname ?? ''} ${person?.surname ?? ''}`.trim();
  return name || fallback;
}

/** 'street building/apartment, postcode city', leaving out what the patient did not give. */
export function patientAddress(
  p: Pick<
    PatientDetail,
    | 'address_street'
    | 'address_building'
    | 'address_apartment'
    | 'address_postcode'
    | 'address_city'
  >,
): string {
  const number = [p.address_building, p.address_apartment].filter(Boolean).join('/');
  const street = [p.address_street, number].filter(Boolean).join(' ');
  const town = [p.address_postcode, p.address_city].filter(Boolean).join(' ');
  return [street, town].filter(Boolean).join(', ');
}

export type AttachmentProblem = 'invalid_type' | 'too_large';

/** The extension in lower case ('Wyniki.PDF' -> 'pdf'), or '' without one. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The client-side check of an attachment (spec §5: xls, xlsx, pdf, doc, docx, txt, rtf; 20 MB).
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

/** Numbers as Polish readers expect them: '72.5' -> '72,5' in pl. */
export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'pl-PL', {
    maximumFractionDigits: 2,
  }).format(value);
}
