import { z } from 'zod';
import { queryIdField } from '../validation.js';

/** `GET /api/dashboard?unit_id`: one unit, or every unit within the caller's reach. */
export const dashboardQuery = z.object({ unit_id: queryIdField().optional() });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

const count = z.number().int();

/** The analytes whose out-of-norm rate the dashboard shows (the samples' biochemistry). */
export const DASHBOARD_ANALYTES = ['alt', 'ast', 'creatine', 'bilirubine'] as const;

/**
 * The study at a glance (ADR 060). The fields named in the API contract first; `by_subgroup`,
 * `by_unit`, `recruitment_target` and `today` beside them for the screen.
 */
export const dashboardResponse = z.object({
  patients: z.object({
    total: count,
    by_group: z.array(z.object({ group_id: count, count })),
    /** Recruited (registered) per month in Warsaw, oldest first; months without any left out. */
    recruitment: z.array(z.object({ month: z.string(), count })),
    by_subgroup: z.array(z.object({ group_id: count, subgroup_id: count.nullable(), count })),
    /** Active patients per unit within reach (one entry when a unit was asked for). */
    by_unit: z.array(z.object({ unit_id: count, count })),
  }),
  visits: z.object({
    /** Live visits from Monday to Sunday of the current week in Warsaw. */
    this_week: count,
    /** Patients overdue for their next visit (as `GET /api/visits/overdue` counts them). */
    overdue: count,
    in_window: count,
    out_of_window: count,
  }),
  samples: z.object({
    by_status: z.array(z.object({ status: z.string(), count })),
    /** Median whole days from drawing to results; null before any result. */
    median_days_to_results: z.number().nullable(),
  }),
  /**
   * The share (0..1) of results out of norm per analyte (`alt`, `ast`, `creatine`, `bilirubine`,
   * then `medicine_{id}` for the drug concentrations that have a range to judge them by);
   * analytes without a result left out.
   */
  out_of_norm: z.array(z.object({ analyte: z.string(), rate: z.number(), results: count })),
  alerts_open: count,
  queries_open: count,
  /** The target from the `recruitment_target` setting, for the units answered. */
  recruitment_target: z.object({
    per_unit_month: z.number().nullable(),
    total: z.number().nullable(),
  }),
  /** The Monday and Sunday of `this_week` (YYYY-MM-DD), for the visits list's link. */
  week: z.object({ from: z.string(), to: z.string() }),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
