import { z } from 'zod';

/**
 * The Excel report (docs/product-rules.md "Reports"; docs/api-conventions.md "Reports"; ADR 032):
 * one row per sample, the chosen columns in this order, at least two.
 */
export const REPORT_COLUMNS = [
  'patient_id',
  'probe_code',
  'type_of_probe',
  'patients_group',
  'biochemistry_results_alt',
  'biochemistry_results_ast',
  'biochemistry_results_creatine',
  'biochemistry_results_bilirubine',
  'first_medicine_concentrations_result',
  'second_medicine_concentrations_result',
  'third_medicine_concentrations_result',
  'visit_results_qrs',
  'visit_results_qtcb',
] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];
export const REPORT_MIN_COLUMNS = 2;

/** POST /api/generate_reports: fewer than two columns → 422 (`empty` none, `not_valid` one). */
export const reportBody = z.object({
  columns: z
    .array(z.enum(REPORT_COLUMNS, { error: 'invalid' }), { error: 'required' })
    .max(REPORT_COLUMNS.length, { error: 'invalid' })
    .refine((columns) => columns.length > 0, { error: 'empty', abort: true })
    .refine((columns) => columns.length >= REPORT_MIN_COLUMNS, { error: 'not_valid', abort: true })
    .refine((columns) => new Set(columns).size === columns.length, { error: 'invalid' }),
});

/** The chosen columns in their fixed order (docs/product-rules.md "Fixed orders and words"), whatever order they were sent in. */
export function reportColumnsInOrder(columns: readonly ReportColumn[]): ReportColumn[] {
  const chosen = new Set(columns);
  return REPORT_COLUMNS.filter((column) => chosen.has(column));
}
export type ReportBody = z.infer<typeof reportBody>;
