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

/** POST /api/generate_reports: the whole file arrives before it is saved as data.xlsx. */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async (columns: ReportColumn[]) => {
      const blob = await api.request<Blob>('/generate_reports', {
        method: 'POST',
        body: { columns },
        responseType: 'blob',
      });
      saveBlob(blob, 'data.xlsx');
    },
  });
}

/** GET /api/exports/odm.xml, saved as odm.xml. */
export function useDownloadOdm() {
  return useMutation({
    mutationFn: async () => {
      const blob = await api.request<Blob>('/exports/odm.xml', { responseType: 'blob' });
      saveBlob(blob, 'odm.xml');
    },
  });
}
