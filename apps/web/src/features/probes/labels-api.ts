import type { ProbeLabelTarget } from '../../components/probe-label-slot';
import { api } from '../../lib/api-client';
import { download } from '../../lib/download';

/** Where a target's labels are: a sample's, or a kit order's kits' (ADR 035). */
function labelPath(target: ProbeLabelTarget, kind: 'zpl' | 'pdf'): string {
  return `/${target.of ?? 'probes'}/${target.id}/label.${kind}`;
}

/** The PDF's name: `etykiety-{code}.pdf` for a sample, `zestawy-{order}.pdf` for kits. */
export function labelFileName(target: ProbeLabelTarget): string {
  return target.of === 'probe-sets'
    ? `zestawy-${target.id}.pdf`
    : `etykiety-${target.code.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
}

/** GET /api/probes/{id}/label.zpl?amount= (or a kit order's): the ZPL the printer receives. */
export async function fetchLabelZpl(target: ProbeLabelTarget, amount: number): Promise<string> {
  const blob = await api.request<Blob>(labelPath(target, 'zpl'), {
    query: { amount },
    responseType: 'blob',
  });
  return blob.text();
}

/** GET /api/probes/{id}/label.pdf?amount= (or a kit order's), saved under labelFileName. */
export function downloadLabelPdf(target: ProbeLabelTarget, amount: number) {
  return download({
    path: labelPath(target, 'pdf'),
    query: { amount },
    fileName: labelFileName(target),
  });
}

/**
 * The label's first line, as the server prints it: "POR - ŻYL", "DOM - WŁO" (docs/product-rules.md
 * "Labels").
 */
export function labelHeading(target: ProbeLabelTarget): string {
  if (target.of === 'probe-sets') return target.heading;
  const probe = target;
  const place = probe.collect_place === 'home' ? 'DOM' : 'POR';
  const material = probe.type_of_material === 'capillary' ? 'WŁO' : 'ŻYL';
  return `${place} - ${material}`;
}

/** Label amount (docs/product-rules.md "Validation"): a whole number from 0 to 10. */
export function isLabelAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 10;
}
