import { documentRefType } from '@portal/shared';
import type { DocumentPanel, FileSaved, PanelDocument, PanelDocumentList } from '@portal/shared';
import { api } from '../lib/api-client';

/** A panel's documents, newest first (`GET /api/settings/documents/{panel}`, as `data.data`). */
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
