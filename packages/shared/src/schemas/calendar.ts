import { z } from 'zod';
import { warsawTimeExists } from '../slots.js';
import { dayField, idField, queryIdField, requiredId } from '../validation.js';
import { versionField } from './common.js';

/**
 * Unit calendar rules (docs/product-rules.md "Records and their states", docs/api-conventions.md
 * "Unit calendar rule", ADR 025): a rule opens (`enabled`, "unblock hours") or closes (`disabled`,
 * "block hours") the hours from `started_at` to `ended_at` on its `date`, or on every date of that
 * weekday when `is_global`.
 */
export const CALENDAR_RULE_TYPES = ['enabled', 'disabled'] as const;
export type CalendarRuleType = (typeof CALENDAR_RULE_TYPES)[number];

/** A whole-day block: one disabled rule 00:00–23:59 on the date. */
export const WHOLE_DAY_START = '00:00:00';
export const WHOLE_DAY_END = '23:59:00';

/**
 * A time of day to the minute, `HH:MM` or `HH:MM:SS` on input (seconds only `00`: the slot grid
 * counts minutes), always `HH:MM:SS` after parsing and in answers. `24:00` and `25:00` are no
 * time of a day; the end of a day is 23:59.
 */
export const timeField = () =>
  z
    .string({ error: 'required' })
    .min(1, { error: 'required', abort: true })
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:00)?$/, { error: 'invalid_time' })
    .transform((value) => (value.length === 5 ? `${value}:00` : value));

/** The fields a rule is written with, shared by POST and PUT. */
const ruleFields = {
  date: dayField(),
  started_at: timeField(),
  ended_at: timeField(),
  type: z.enum(CALENDAR_RULE_TYPES, { error: 'invalid' }),
  is_global: z.boolean({ error: 'invalid' }).default(false),
  /**
   * The caller has seen the booked visits this write closes and blocks anyway (ADR 041);
   * without it such a write answers 409 `visits_booked` with the visits.
   */
  confirm_booked_visits: z.boolean({ error: 'invalid' }).optional(),
};

/**
 * End before start names `ended_at` (docs/product-rules.md "Validation"); equal is allowed ("po lub
 * równą").
 */
function endNotBeforeStart(
  rule: { started_at: string; ended_at: string },
  ctx: z.core.$RefinementCtx,
) {
  // Only two valid times are compared (a refused one is reported on its own field); HH:MM:SS
  // strings compare as times.
  const valid = (time: unknown) => typeof time === 'string' && /^\d\d:\d\d:\d\d$/.test(time);
  if (valid(rule.started_at) && valid(rule.ended_at) && rule.ended_at < rule.started_at)
    ctx.addIssue({ code: 'custom', path: ['ended_at'], message: 'end_before_start' });
}

/**
 * A dated rule's times must exist on its date in Warsaw: 02:00–02:59 on the spring-forward
 * night do not. A global rule is read on every date of its weekday, so it is not held to one.
 */
function timesExistOnDate(
  rule: { date: string; started_at: string; ended_at: string; is_global: boolean },
  ctx: z.core.$RefinementCtx,
) {
  // Noon exists on every real date: a refused date is reported on its own field only.
  if (rule.is_global || !warsawTimeExists(String(rule.date), '12:00:00')) return;
  for (const field of ['started_at', 'ended_at'] as const) {
    const time = rule[field];
    if (
      typeof time === 'string' &&
      /^\d\d:\d\d:\d\d$/.test(time) &&
      !warsawTimeExists(rule.date, time)
    )
      ctx.addIssue({ code: 'custom', path: [field], message: 'invalid_time' });
  }
}

function ruleChecks(
  rule: { date: string; started_at: string; ended_at: string; is_global: boolean },
  ctx: z.core.$RefinementCtx,
) {
  endNotBeforeStart(rule, ctx);
  timesExistOnDate(rule, ctx);
}

/** POST /api/units/calendar. */
export const calendarRuleBody = z
  .object({ unit_id: requiredId(), ...ruleFields })
  .superRefine(ruleChecks);
export type CalendarRuleBody = z.infer<typeof calendarRuleBody>;

/**
 * PUT /api/units/calendar/{id}: the same fields. A rule stays in its unit (`unit_id`, when sent,
 * must be the rule's own). `version` is the one that was read; a stale one answers 409
 * `conflict` (ADR 018).
 */
export const calendarRuleUpdateBody = z
  .object({
    unit_id: idField().optional(),
    version: versionField().optional(),
    ...ruleFields,
  })
  .superRefine(ruleChecks);
export type CalendarRuleUpdateBody = z.infer<typeof calendarRuleUpdateBody>;

export const calendarRule = z.object({
  id: z.number().int(),
  unit_id: z.number().int(),
  date: z.string(),
  started_at: z.string(),
  ended_at: z.string(),
  type: z.enum(CALENDAR_RULE_TYPES),
  is_global: z.boolean(),
  version: z.number().int(),
});
export type CalendarRule = z.infer<typeof calendarRule>;

/** A booked visit a calendar write would leave in closed hours (ADR 041). */
export const calendarBookedVisit = z.object({
  id: z.number().int(),
  date: z.string(),
  started_at: z.string(),
  ended_at: z.string(),
  patient: z.object({ id: z.number().int(), firstname: z.string(), surname: z.string() }),
});
export type CalendarBookedVisit = z.infer<typeof calendarBookedVisit>;

/**
 * A calendar write's 409: `exist_rule`, `conflict`, or `visits_booked` with the booked visits
 * the write would close (sent again with `confirm_booked_visits`, it is made).
 */
export const calendarWriteConflict = z.object({
  status: z.string(),
  visits: z.array(calendarBookedVisit).optional(),
});
export type CalendarWriteConflict = z.infer<typeof calendarWriteConflict>;

/** DELETE /api/units/calendar/{id}?confirm_booked_visits=true (deleting an unblock closes hours). */
export const calendarDeleteQuery = z.object({
  confirm_booked_visits: z
    .enum(['true', 'false', '1', '0'], { error: 'invalid' })
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

export const calendarRuleSaved = z.object({ status: z.literal('success'), data: calendarRule });
export type CalendarRuleSaved = z.infer<typeof calendarRuleSaved>;

/** GET /api/units/calendar/get_by_filters?unit_id&date. */
export const calendarFiltersQuery = z.object({
  unit_id: queryIdField('required'),
  date: z.string({ error: 'required' }).pipe(dayField()),
});
export type CalendarFiltersQuery = z.infer<typeof calendarFiltersQuery>;
export const calendarRuleList = z.object({ data: z.array(calendarRule) });
export type CalendarRuleList = z.infer<typeof calendarRuleList>;

/** A month named in a query string (`year`, `month` 1–12): the month views of rules and visits. */
export const monthQueryFields = {
  year: z.coerce
    .number({ error: 'required' })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid_number' })
    .max(9999, { error: 'invalid_number' }),
  month: z.coerce
    .number({ error: 'required' })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid_number' })
    .max(12, { error: 'invalid_number' }),
};

/** GET /api/units/calendar/get_rules_count?unit_id&year&month. */
export const calendarCountQuery = z.object({
  unit_id: queryIdField('required'),
  ...monthQueryFields,
});
export type CalendarCountQuery = z.infer<typeof calendarCountQuery>;

/**
 * One day of the month that any rule applies to: how many (the date's own and its weekday's
 * global ones), the earliest start and latest end among them, and whether a whole-day block
 * closes it.
 */
export const calendarDayCount = z.object({
  date: z.string(),
  count: z.number().int(),
  started_at: z.string(),
  ended_at: z.string(),
  is_blocked: z.boolean(),
});
export type CalendarDayCount = z.infer<typeof calendarDayCount>;

/** ISO weekdays as object keys: "1" (Monday) … "7" (Sunday). */
export const ISO_WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;

export const calendarRulesCount = z.object({
  data: z.array(calendarDayCount),
  global_rules: z.object({
    '1': z.array(calendarRule),
    '2': z.array(calendarRule),
    '3': z.array(calendarRule),
    '4': z.array(calendarRule),
    '5': z.array(calendarRule),
    '6': z.array(calendarRule),
    '7': z.array(calendarRule),
  }),
});
export type CalendarRulesCount = z.infer<typeof calendarRulesCount>;

/** The ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD day, whatever the time zone. */
export function calendarWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}
