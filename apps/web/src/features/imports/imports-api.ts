import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { importBatchList, restoreResult } from '@portal/shared';
import type { BatchMode, ImportBatch, ImportMode, RestoreResult } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { currentLanguage } from '../../i18n/i18n';
import { ApiError, isApiError } from '../../lib/api';
import { api } from '../../lib/api-client';
import type { Download } from '../../lib/download';
import { sessionStore } from '../../lib/session';
import { uploadPercent } from './import-files';
import { outcomeOf } from './import-outcome';
import type { ImportOutcome } from './import-outcome';

/** Where a request stands: bytes going up (with percent), then the server validating. */
export type ImportPhase = { kind: 'uploading'; percent: number } | { kind: 'processing' };

function formOf(files: readonly File[]): FormData {
  const form = new FormData();
  files.forEach((file, index) => form.append(`files[${index}]`, file, file.name));
  return form;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * fetch reports no upload progress, so the files go up through XMLHttpRequest (progress events
 * for large files). Resolves with the HTTP status and the parsed answer.
 */
function postWithProgress(
  path: string,
  form: FormData,
  token: string | null,
  onPhase: (phase: ImportPhase) => void,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const percent = uploadPercent(event.loaded, event.total);
      onPhase(percent >= 100 ? { kind: 'processing' } : { kind: 'uploading', percent });
    };
    // Every byte is sent: the server now reads and validates the whole batch.
    xhr.upload.onload = () => onPhase({ kind: 'processing' });
    xhr.onload = () => {
      resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error'));
    xhr.send(form);
  });
}

/**
 * `POST /api/data_import/{mode}` with `files[0]`, `files[1]`, …. An expired token is renewed by
 * the API client, which then sends the files once more (without progress).
 */
export async function sendImport(
  mode: ImportMode,
  files: readonly File[],
  onPhase: (phase: ImportPhase) => void,
): Promise<ImportOutcome> {
  const path = `/data_import/${mode}`;
  onPhase(files.length ? { kind: 'uploading', percent: 0 } : { kind: 'processing' });
  const first = await postWithProgress(
    path,
    formOf(files),
    sessionStore.get()?.token ?? null,
    onPhase,
  );
  if (first.status !== 401) return outcomeOf(first.status, first.body);
  try {
    return outcomeOf(200, await api.postForm<unknown>(path, formOf(files)));
  } catch (error) {
    if (isApiError(error) && error.httpStatus === 422) return outcomeOf(422, error.body);
    throw error;
  }
}

export function useImportBatches() {
  return useQuery({
    queryKey: queryKeys.importBatches(),
    queryFn: async ({ signal }) =>
      importBatchList.parse(await api.request<unknown>('/data_import/batches', { signal })).data,
  });
}

/** Everything an import or a flush can change: patients, samples and the batches. */
function useInvalidateImported() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.importBatches() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) }),
    ]);
}

export function useSendImport() {
  const invalidate = useInvalidateImported();
  return useMutation({
    mutationFn: (input: {
      mode: ImportMode;
      files: readonly File[];
      onPhase: (phase: ImportPhase) => void;
    }) => sendImport(input.mode, input.files, input.onPhase),
    onSettled: invalidate,
  });
}

/**
 * `PUT /api/data_import/batches/{id}/restore`: undoes a flush of that batch; answers what came
 * back and which patients stayed deleted because an active patient has their data.
 */
export function useRestoreBatch() {
  const invalidate = useInvalidateImported();
  return useMutation({
    mutationFn: async (batch: Pick<ImportBatch, 'id'>): Promise<RestoreResult> =>
      restoreResult.parse(await api.put<unknown>(`/data_import/batches/${batch.id}/restore`)),
    onSuccess: invalidate,
  });
}

/** The template's file name as saved, the same as in its address. */
export const templateFileName = (mode: BatchMode) => `${mode}.xlsx`;

/** A template, as lib/download.ts fetches and saves it. */
export const templateFile = (mode: BatchMode): Download => ({
  path: `/data_import/templates/${mode}.xlsx`,
  fileName: templateFileName(mode),
});
