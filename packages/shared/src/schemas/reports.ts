import { z } from 'zod';

/**
 * The Excel report (spec "Reports", §5, §7; design §6 "Reports"; ADR 032): one row per sample,
 * the chosen columns in this order (the spec's), at least two.
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
    .max(REPORT_COLUMNS.length, { error: 'invalid' }),
});
export type ReportBody = z.infer<typeof reportBody>;
