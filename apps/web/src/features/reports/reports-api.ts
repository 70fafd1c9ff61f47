import { useMutation } from '@tanstack/react-query';
import type { ReportColumn } from '@portal/shared';
import { api } from '../../lib/api-client';

/** Saves a fetched blob under a name (the bearer token cannot ride on a plain link). */
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

/** `?pseudonymised=true` when asked (ADR 054); nothing otherwise (the API's default). */
const pseudonymisedQuery = (pseudonymised: boolean) => (pseudonymised ? '?pseudonymised=true' : '');

/** POST /api/generate_reports: the whole file arrives before it is saved as data.xlsx. */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async ({
      columns,
      pseudonymised = false,
    }: {
      columns: ReportColumn[];
      pseudonymised?: boolean;
    }) => {
      const blob = await api.request<Blob>(
        `/generate_reports${pseudonymisedQuery(pseudonymised)}`,
        {
          method: 'POST',
          body: { columns },
          responseType: 'blob',
        },
      );
      saveBlob(blob, 'data.xlsx');
    },
  });
}

/** GET /api/exports/odm.xml, saved as odm.xml. */
export function useDownloadOdm() {
  return useMutation({
    mutationFn: async (pseudonymised: boolean = false) => {
      const blob = await api.request<Blob>(`/exports/odm.xml${pseudonymisedQuery(pseudonymised)}`, {
        responseType: 'blob',
      });
      saveBlob(blob, 'odm.xml');
    },
  });
}

/** GET /api/exports/fhir (ADR 055): pseudonymised unless identities are asked for. */
export function useDownloadFhir() {
  return useMutation({
    mutationFn: async (pseudonymised: boolean) => {
      const blob = await api.request<Blob>(
        `/exports/fhir?pseudonymised=${pseudonymised ? 'true' : 'false'}`,
        { responseType: 'blob' },
      );
      saveBlob(blob, 'fhir.ndjson');
    },
  });
}
