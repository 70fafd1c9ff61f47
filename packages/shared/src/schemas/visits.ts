import { z } from 'zod';
import { monitoringFacts, signature } from './monitoring.js';
import { reasonField, recordLock, signedRecordAbilities } from './records.js';
import { ECG_PARAMETERS, ECG_PLAUSIBLE } from '../ecg.js';
import { addDays } from '../time.js';
import {
  dayField,
  idField,
  multilineText,
  optionalMultilineText,
  queryIdField,
  requiredId,
} from '../validation.js';
import { pagedListQuery, pagedResponse, versionField } from './common.js';
import { monthQueryFields, timeField } from './calendar.js';
import { RICH_TEXT_MAX } from './patient-records.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';
import type { VisitWindow } from './settings.js';

/**
 * Visits (docs/product-rules.md "Slot grid", "Visit ordinal", "Recording a visit", "Visit windows";
 * docs/api-conventions.md "Slots", "Visit"). Times of day travel as `HH:MM:SS` in answers and
 * `HH:MM` or `HH:MM:SS` in bodies, like the calendar rules.
 */

/** A reason for booking outside the window: a sentence or two, kept in the audit trail. */
export const WINDOW_REASON_MAX = 1000;
/**
 * The doctor's comment on a recorded visit: rich text, sanitised on the server
 * (docs/product-rules.md "Rich text").
 */
export const VISIT_COMMENT_MAX = RICH_TEXT_MAX;
/** The visit's notes: rich text like the comment, edited on the visit's card (ADR 038). */
export const VISIT_NOTES_MAX = RICH_TEXT_MAX;

/** GET /api/units/{id}/slots?date=YYYY-MM-DD. */
export const slotsQuery = z.object({ date: z.string({ error: 'required' }).pipe(dayField()) });
export type SlotsQuery = z.infer<typeof slotsQuery>;

export const slotVisit = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string() }),
});
export const daySlot = z.object({
  started_at: z.string(),
  ended_at: z.string(),
  visit: slotVisit.nullable(),
  /**
   * Present (true) on a booked visit whose hours are no longer open (blocked after it was
   * booked, or already past): listed so that a booked visit is never hidden (ADR 041).
   */
  closed: z.literal(true).optional(),
});
export type DaySlot = z.infer<typeof daySlot>;
/**
 * Every open slot of the day, booked or free (none on weekends, past and blocked days), as the
 * API has always answered them; beside them, in `closed_visits`, every live visit of the day
 * outside them (blocked after it was booked, or past), marked `closed`; both ordered by time.
 * Left out when there is none, so the usual answer is the contract's `{data}` alone.
 */
export const slotsResponse = z.object({
  data: z.array(daySlot),
  closed_visits: z.array(daySlot).optional(),
});
export type SlotsResponse = z.infer<typeof slotsResponse>;

/**
 * POST /api/visits and PUT /api/visits/{id}. The unit is the patient's; `ended_at`, when sent,
 * must be the slot's end; `doctor_id` defaults to the patient's doctor; `window_reason` is
 * required when the date lies outside the window of the visit's number (422
 * `window_reason_required` on that field).
 */
export const visitBody = z.object({
  patient_id: requiredId(),
  date: z.string({ error: 'required' }).pipe(dayField()),
  started_at: timeField(),
  ended_at: timeField().optional(),
  doctor_id: idField().nullish(),
  window_reason: optionalMultilineText(WINDOW_REASON_MAX).nullish(),
});
export type VisitBody = z.infer<typeof visitBody>;
/** PUT /api/visits/{id}: the same and the version that was read (409 `conflict` when stale). */
export const visitUpdateBody = visitBody.extend({ version: versionField().optional() });
export type VisitUpdateBody = z.infer<typeof visitUpdateBody>;

/** One ECG value in ms: a whole number within `ECG_PLAUSIBLE`, or null when not measured. */
const ecgValue = (parameter: keyof typeof ECG_PLAUSIBLE) =>
  z
    .number({ error: 'invalid_number' })
    .int({ error: 'invalid_number' })
    .min(ECG_PLAUSIBLE[parameter].min, { error: 'implausible_value' })
    .max(ECG_PLAUSIBLE[parameter].max, { error: 'implausible_value' })
    .nullable()
    .default(null);

/** PUT /api/visits/{id}/results: from the visit's day on (409 `too_early` before). */
export const visitResultsBody = z.object({
  isDone: z.boolean({ error: 'invalid' }),
  comment: multilineText({ max: VISIT_COMMENT_MAX, trim: false }).nullish(),
  results: z
    .object({
      qt: ecgValue('qt'),
      rr: ecgValue('rr'),
      pq: ecgValue('pq'),
      qrs: ecgValue('qrs'),
    })
    .default({ qt: null, rr: null, pq: null, qrs: null }),
  version: versionField().optional(),
  /** Required once the visit is recorded (ADR 048). */
  ...reasonField,
});
export type VisitResultsBody = z.infer<typeof visitResultsBody>;

export const visitResults = z.object({
  qt: z.number().nullable(),
  rr: z.number().nullable(),
  pq: z.number().nullable(),
  qrs: z.number().nullable(),
  qtcb: z.number().nullable(),
  qtcfra: z.number().nullable(),
});

export const visitFile = z.object({
  id: z.number().int(),
  original_name: z.string(),
  created_at: z.string(),
});

/** The samples taken at the visit, each linking to its detail. */
export const visitProbe = z.object({
  id: z.number().int(),
  code: z.string(),
  created_at: z.string(),
  status: z.string(),
});

/**
 * What the signed-in user may do with a visit (ADR 045): `edit` moves it (PUT /visits/{id}),
 * `cancel` cancels it and `delete` is the DELETE call that cancels (the same rule: a visit is
 * never erased), both only before it has begun and while it is not done; `record` writes its
 * ECG (PUT /visits/{id}/results, from its day on); `notes` writes its notes (at any time).
 */
export const visitAbilities = z.object({
  edit: z.boolean(),
  cancel: z.boolean(),
  delete: z.boolean(),
  record: z.boolean(),
  notes: z.boolean(),
});
export type VisitAbilities = z.infer<typeof visitAbilities>;

export const visit = z.object({
  id: z.number().int(),
  date: z.string(),
  started_at: z.string(),
  ended_at: z.string(),
  /** The visit's position among the patient's visits by date and time, from 1. */
  ordinal: z.number().int(),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string() }),
  doctor_id: z.number().int().nullable(),
  doctor: z.object({ firstname: z.string(), surname: z.string() }).nullable(),
  unit_id: z.number().int(),
  isDone: z.boolean(),
  comment: z.string().nullable(),
  out_of_window: z.boolean(),
  window_reason: z.string().nullable(),
  /** The visit's notes: rich text sanitised on the server; null when none (ADR 038). */
  notes: z.string().nullable(),
  results: visitResults,
  out_of_norm: z.array(z.enum(ECG_PARAMETERS as [string, ...string[]])),
  files: z.array(visitFile),
  probes: z.array(visitProbe),
  version: z.number().int(),
  /** The signed-in user's abilities on this visit (ADR 045). */
  abilities: visitAbilities,
  // The detail (GET /api/visits/{id}) only: signatures (ADR 050), verification and queries (ADR 051).
  signatures: z.array(signature).optional(),
  /** The detail only: the record's lock (null: not locked) and what the user may do (ADR 048). */
  lock: recordLock.optional(),
  record_abilities: signedRecordAbilities.optional(),
  ...monitoringFacts.partial().shape,
});
export type Visit = z.infer<typeof visit>;

export const visitSaved = z.object({ status: z.literal('ok'), visit });
export type VisitSaved = z.infer<typeof visitSaved>;
export const notAvailableResponse = z.object({ status: z.literal('not_available') });
export const visitList = z.object({ data: z.array(visit) });
export type VisitList = z.infer<typeof visitList>;

/**
 * GET /api/visits. With `date`: that day's visits, all of them, by time (`{data}`; `unit_id` and
 * `doctor_id` narrow it, paging is not used). Without it: every live visit within reach, paged
 * (`limit`, `page`), narrowed by `unit_id`, `doctor_id`, the days `from`..`to` (both
 * included; `from` after `to`: 422 `date_range_reversed` on `to`) and `out_of_window` (0 or 1),
 * oldest first by date, start and id, answered `{data, total, total_kind}` (ADR 038). Visits of
 * deleted patients are not listed, as the dashboard does not count them (ADR 060).
 */
export const visitsQuery = z
  .object({
    date: dayField().optional(),
    unit_id: queryIdField().optional(),
    doctor_id: queryIdField().optional(),
    from: dayField().optional(),
    to: dayField().optional(),
    /** 1: only visits booked outside their window, 0: only inside (the dashboard's tiles). */
    out_of_window: z.enum(['0', '1'], { error: 'invalid' }).transform(Number).optional(),
    limit: z.coerce
      .number({ error: 'invalid_number' })
      .int({ error: 'invalid_number' })
      .min(1, { error: 'invalid_number' })
      .max(MAX_PAGE_SIZE, { error: 'invalid_number' })
      .default(DEFAULT_PAGE_SIZE),
    page: z.coerce
      .number({ error: 'invalid_number' })
      .int({ error: 'invalid_number' })
      .min(1, { error: 'invalid_number' })
      .max(1_000_000, { error: 'invalid_number' })
      .default(1),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from > query.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'date_range_reversed' });
  });
export type VisitsQuery = z.infer<typeof visitsQuery>;
/** GET /api/visits without `date`: a page of visits with the list total of ADR 021. */
export const visitPage = pagedResponse(visit);
export type VisitPage = z.infer<typeof visitPage>;

/** PUT /api/visits/{id}/notes: the notes (empty or null clears them) and the version read. */
export const visitNotesBody = z.object({
  notes: multilineText({ max: VISIT_NOTES_MAX, trim: false }).nullable(),
  version: versionField().optional(),
});
export type VisitNotesBody = z.infer<typeof visitNotesBody>;
/** GET /api/visits/count?year&month&unit_id → {data:[{date, count}]}. */
export const visitsCountQuery = z.object({
  ...monthQueryFields,
  unit_id: queryIdField().optional(),
});
export const visitsCount = z.object({
  data: z.array(z.object({ date: z.string(), count: z.number().int() })),
});

/** The window of one visit number, as days (docs/product-rules.md "Visit windows"). */
export const visitWindowView = z.object({
  visit: z.number().int(),
  target_date: z.string(),
  from: z.string(),
  to: z.string(),
});
export type VisitWindowView = z.infer<typeof visitWindowView>;
/**
 * GET /api/patients/{id}/visit_window: the window of the patient's next visit number; null
 * before the first visit (which has no window) and after the schedule's last visit.
 */
export const nextVisitWindow = z.object({
  data: visitWindowView.nullable(),
  /** The last day a visit may be booked on: today plus the booking horizon (ADR 038). */
  bookable_until: z.string(),
});
export type NextVisitWindow = z.infer<typeof nextVisitWindow>;

/**
 * The window of visit number `visit`, counted from the first visit's date; null for the first
 * visit and for numbers the schedule does not list.
 */
export function visitWindowOf(
  schedule: readonly VisitWindow[],
  firstVisitDate: string,
  visit: number,
): VisitWindowView | null {
  const entry = schedule.find((item) => item.visit === visit);
  if (!entry) return null;
  const target = addDays(firstVisitDate, entry.day);
  return {
    visit,
    target_date: target,
    from: addDays(target, -entry.window_days),
    to: addDays(target, entry.window_days),
  };
}

/** GET /api/visits/overdue: patients whose next visit's window closed without a visit. */
export const OVERDUE_ORDER_BY = ['window_to', 'surname', 'id'] as const;
export const overdueQuery = pagedListQuery(OVERDUE_ORDER_BY).extend({
  unit_id: queryIdField().optional(),
});
export type OverdueQuery = z.infer<typeof overdueQuery>;
export const overdueVisit = z.object({
  /** The patient's id again: one row per patient, and every list row has an `id`. */
  id: z.number().int(),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string(), pesel: z.string() }),
  unit_id: z.number().int(),
  doctor_id: z.number().int().nullable(),
  visit: z.number().int(),
  target_date: z.string(),
  window_from: z.string(),
  window_to: z.string(),
  last_visit_date: z.string(),
});
export type OverdueVisit = z.infer<typeof overdueVisit>;
export const overdueList = pagedResponse(overdueVisit);
export type OverdueList = z.infer<typeof overdueList>;
