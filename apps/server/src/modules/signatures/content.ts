import { createHash } from 'node:crypto';
import type { SignedRecordType } from '@portal/shared';
import { asc, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { probeMedicines, probes, visits } from '../../db/schema.js';

/**
 * The signed content of a record (ADR 050): exactly the columns whose change the database
 * trigger record_content_changed (migration 0028) watches, so that a signature is valid exactly
 * while its hash still matches. Read under a share lock, so an edit waits for the signing
 * transaction and then invalidates the new signature.
 */
export async function signedContent(
  tx: Transaction,
  type: SignedRecordType,
  id: number,
): Promise<Record<string, unknown> | null> {
  if (type === 'visit') {
    const [row] = await tx
      .select({
        patient_id: visits.patient_id,
        date: visits.date,
        started_at: visits.started_at,
        ended_at: visits.ended_at,
        is_done: visits.is_done,
        comment: visits.comment,
        qt: visits.qt,
        rr: visits.rr,
        pq: visits.pq,
        qrs: visits.qrs,
        qtcb: visits.qtcb,
        qtcfra: visits.qtcfra,
        out_of_window: visits.out_of_window,
        window_reason: visits.window_reason,
        notes: visits.notes,
        cancelled_at: visits.cancelled_at,
      })
      .from(visits)
      .where(eq(visits.id, id))
      .for('share');
    return row ? { ...row, record_type: 'visit', id } : null;
  }
  const [row] = await tx
    .select({
      patient_id: probes.patient_id,
      date_of_sample: probes.date_of_sample,
      type_of_test: probes.type_of_test,
      type_of_material: probes.type_of_material,
      adverse_events: probes.adverse_events,
      alt: probes.alt,
      ast: probes.ast,
      creatine: probes.creatine,
      bilirubine: probes.bilirubine,
      concentration_hours: probes.concentration_hours,
      concentration_date_of_analysis: probes.concentration_date_of_analysis,
      results_at: probes.results_at,
      result_comparators: probes.result_comparators,
    })
    .from(probes)
    .where(eq(probes.id, id))
    .for('share');
  if (!row) return null;
  const medicines = await tx
    .select({
      medicine_id: probeMedicines.medicine_id,
      concentration: probeMedicines.concentration,
    })
    .from(probeMedicines)
    .where(eq(probeMedicines.probe_id, id))
    .orderBy(asc(probeMedicines.medicine_id));
  return { ...row, medicines, record_type: 'probe', id };
}

/** JSON with every object's keys sorted (arrays keep their order); dates as ISO 8601 in UTC. */
export function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The SHA-256 (hex) of the content's canonical JSON. */
export function contentHash(content: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}
