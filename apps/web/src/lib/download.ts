import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DownloadedFile, QueryValue } from './api';
import { api } from './api-client';
import { commonErrorKey } from './api-errors';
import { fileNameFrom } from './file-name';
import { notifyError } from './notify';

/** A file to fetch and save. */
export interface Download {
  path: string;
  query?: Record<string, QueryValue>;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** The name to save under when the answer names none (its Content-Disposition). */
  fileName: string;
}

/** Saves a blob under a name, as the browser saves a link's download. */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Fetches a file with the session's token (it cannot ride on a plain link) and saves it under the
 * name the server gives it: the one way the web app downloads (ADR 013). Rejects as the API
 * client does (an ApiError), for the caller to say so.
 */
export async function download({ path, query, method, body, fileName }: Download): Promise<void> {
  const file = await api.request<DownloadedFile>(path, {
    ...(query ? { query } : {}),
    ...(method ? { method } : {}),
    ...(body === undefined ? {} : { body }),
    responseType: 'file',
  });
  saveBlob(file.blob, fileNameFrom(file.disposition) ?? fileName);
}

/**
 * A download behind a button or a menu: `start(variables)` fetches and saves
 * `what(variables)`, `busy(variables?)` says whether it (or that variant of it) is on its way, and
 * a failure is a toast in the user's language: `failure(error)` where the screen words it, the
 * common refusal otherwise.
 */
export function useDownload<V = void>(
  what: (variables: V) => Download,
  failure?: (error: unknown) => string | undefined,
) {
  const { t } = useTranslation();
  const mutation = useMutation({
    mutationFn: (variables: V) => download(what(variables)),
    onError: (error) => notifyError(failure?.(error) ?? t(commonErrorKey(error))),
  });
  return {
    start: (variables: V) => mutation.mutate(variables),
    busy: (...variant: [] | [V]) =>
      mutation.isPending && (variant.length === 0 || mutation.variables === variant[0]),
  };
}

export type DownloadState<V> = ReturnType<typeof useDownload<V>>;
