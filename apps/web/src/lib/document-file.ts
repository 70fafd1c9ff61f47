import { DOCUMENT_EXTENSIONS, MAX_FILE_BYTES } from '@portal/shared';

/** What the drop zone's file picker offers (docs/product-rules.md "Validation": txt and pdf). */
export const DOCUMENT_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'text/plain': ['.txt'],
};

/** What is wrong with a chosen file before it is sent (the server checks its content too). */
export function documentProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!(DOCUMENT_EXTENSIONS as readonly string[]).includes(extension)) return 'type';
  return file.size > MAX_FILE_BYTES ? 'size' : null;
}
