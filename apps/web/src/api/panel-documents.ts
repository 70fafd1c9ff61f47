import { DOCUMENT_EXTENSIONS, MAX_FILE_BYTES, documentRefType } from '@portal/shared';
import type { DocumentPanel, FileSaved, PanelDocument, PanelDocumentList } from '@portal/shared';
import { api } from '../lib/api-client';

/** A panel's documents, newest first (`GET /api/settings/documents/{panel}`, spec: data.data). */
export function fetchPanelDocuments(
  panel: DocumentPanel,
  signal?: AbortSignal,
): Promise<PanelDocument[]> {
  return api
    .request<PanelDocumentList>(`/settings/documents/${panel}`, signal ? { signal } : {})
    .then((answer) => answer.data.data);
}

/** Uploads one document to a panel; the server checks it is a real pdf or txt. */
export function uploadPanelDocument(panel: DocumentPanel, file: File) {
  const form = new FormData();
  form.set('ref_type', documentRefType(panel));
  form.set('file', file, file.name);
  return api.postForm<FileSaved>('/files', form);
}

/** What the drop zone's file picker offers (spec §5: txt and pdf). */
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
