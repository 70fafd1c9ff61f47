import type { FileSaved, SuccessResponse } from '@portal/shared';
import { api } from '../lib/api-client';
import { download } from '../lib/download';

/** What a file hangs on (`POST /api/files`): a patient's attachments or a visit's ECG files. */
export interface FileOwner {
  refType: 'patient' | 'visit';
  refId: number;
}

/** Uploads one file; the server checks its type by content and answers the stored file. */
export function uploadFile(owner: FileOwner, file: File, comment?: string | null) {
  const form = new FormData();
  // Fields before the file: the server reads them together with the file part.
  form.set('ref_type', owner.refType);
  form.set('ref_id', String(owner.refId));
  if (comment) form.set('comment', comment);
  form.set('file', file, file.name);
  return api.postForm<FileSaved>('/files', form);
}

/** Deletes one file (the server checks that its patient or visit is within reach). */
export const deleteFile = (fileId: number) => api.delete<SuccessResponse>(`/files/${fileId}`);

/** Downloads a stored file (lib/download.ts), saved under its original name. */
export function downloadFile(file: { id: number; original_name: string }) {
  return download({ path: `/files/${file.id}`, fileName: file.original_name });
}
