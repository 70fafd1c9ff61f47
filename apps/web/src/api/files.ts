import type { FileSaved, SuccessResponse } from '@portal/shared';
import { api } from '../lib/api-client';

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

/**
 * Downloads through fetch (the bearer token cannot ride on a plain link) and saves the blob
 * under the file's original name.
 */
export async function downloadFile(file: { id: number; original_name: string }) {
  const blob = await api.request<Blob>(`/files/${file.id}`, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.original_name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
