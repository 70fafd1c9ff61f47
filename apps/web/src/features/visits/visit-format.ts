import { ECG_FILE_EXTENSIONS, MAX_FILE_BYTES, ecgReference } from '@portal/shared';
import type { EcgParameter } from '@portal/shared';

/** The ECG rows of the card, in the order a doctor reads a tracing. */
export const ECG_ROWS: readonly EcgParameter[] = ['qt', 'rr', 'pq', 'qrs', 'qtcb', 'qtcfra'];
/** The values the doctor types; QTcB and QTcF are computed by the server. */
export const ECG_INPUTS = ['qt', 'rr', 'pq', 'qrs'] as const;

/** A reference range as text: "120–200 ms", "≤ 450 ms", "≥ 600 ms", or null when none. */
export function referenceText(parameter: EcgParameter, sex: 'M' | 'K'): string | null {
  const { min, max } = ecgReference(parameter, sex);
  if (min !== undefined && max !== undefined) return `${min}–${max} ms`;
  if (max !== undefined) return `≤ ${max} ms`;
  if (min !== undefined) return `≥ ${min} ms`;
  return null;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The comment typed as plain text, as the rich text the server stores: one paragraph per line,
 * everything escaped (the server sanitises it again). Empty text is no comment.
 */
export function commentToHtml(text: string): string | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length ? lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') : null;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/**
 * The stored rich text as the plain text the form edits: one line per block. The server has
 * sanitised it to a small allow list, so reading tags as text is enough here (and needs no DOM).
 */
export function htmlToText(html: string | null): string {
  if (!html) return '';
  return html
    .replace(/<br\s*\/?>|<\/(p|li|h[1-6]|blockquote)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** What the file picker offers; the server checks each file's content as well. */
export const ECG_ACCEPT = ECG_FILE_EXTENSIONS.map((extension) => `.${extension}`).join(',');

/** Why a chosen ECG file is refused before sending, or null. */
export function ecgFileProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  if (!(ECG_FILE_EXTENSIONS as readonly string[]).includes(extension)) return 'type';
  if (file.size > MAX_FILE_BYTES) return 'size';
  return null;
}
