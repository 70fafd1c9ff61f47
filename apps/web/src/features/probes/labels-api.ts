import { api } from '../../lib/api-client';

/** GET /api/probes/{id}/label.zpl?amount=: the ZPL the Zebra printer receives. */
export async function fetchLabelZpl(probeId: number, amount: number): Promise<string> {
  const blob = await api.request<Blob>(`/probes/${probeId}/label.zpl`, {
    query: { amount },
    responseType: 'blob',
  });
  return blob.text();
}

/**
 * GET /api/probes/{id}/label.pdf?amount=, saved as `etykiety-{code}.pdf` (fetched: the bearer
 * token cannot ride on a plain link).
 */
export async function downloadLabelPdf(probe: { id: number; code: string }, amount: number) {
  const blob = await api.request<Blob>(`/probes/${probe.id}/label.pdf`, {
    query: { amount },
    responseType: 'blob',
  });
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `etykiety-${probe.code.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The label's first line, as the server prints it: "POR - ŻYL", "DOM - WŁO" (spec §9). */
export function labelHeading(probe: { type_of_material: string; collect_place: string }): string {
  const place = probe.collect_place === 'home' ? 'DOM' : 'POR';
  const material = probe.type_of_material === 'capillary' ? 'WŁO' : 'ŻYL';
  return `${place} - ${material}`;
}

/** Label amount (spec §5): a whole number from 0 to 10. */
export function isLabelAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 10;
}
