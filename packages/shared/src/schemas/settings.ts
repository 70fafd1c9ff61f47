import { z } from 'zod';
import { STRING_MAX } from '../constants.js';
import { phoneField, text } from '../validation.js';
import { labLastError } from './laboratory.js';

/**
 * Typed settings (docs/api-conventions.md "Settings", ADR 010): one zod schema per key, the value a
 * client sends to `POST /api/settings/{name}` and the value `GET` answers. A key never saved
 * answers its default.
 */

/**
 * The parts a probe code is built from, in the order configured (docs/product-rules.md "Probe
 * number").
 */
export const PROBE_CODE_PARTS = [
  'sex',
  'project_number',
  'unit_id',
  'next_probe_number',
  'group_id',
  'material_type',
  'collect_place',
  'material_type_and_place',
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
] as const;
export type ProbeCodePart = (typeof PROBE_CODE_PARTS)[number];

export const probeConfigValue = z
  .array(z.enum(PROBE_CODE_PARTS, { error: 'invalid' }), { error: 'required' })
  .min(1, { error: 'required' })
  .max(32, { error: 'too_long' });
export type ProbeConfigValue = z.infer<typeof probeConfigValue>;

const settingText = (max = STRING_MAX) => text({ max });

/**
 * The laboratory integration as sent: an empty password keeps the stored one. Switching the
 * import on needs a login and a unit code (the password is checked against what is stored).
 */
export const synevoValue = z
  .object({
    login: settingText(),
    password: text({ trim: false }).default(''),
    unit_code: settingText(),
    enable_results_import: z.boolean({ error: 'invalid' }),
  })
  .superRefine((value, ctx) => {
    if (!value.enable_results_import) return;
    if (!value.login) ctx.addIssue({ code: 'custom', path: ['login'], message: 'required' });
    if (!value.unit_code)
      ctx.addIssue({ code: 'custom', path: ['unit_code'], message: 'required' });
  });
export type SynevoValue = z.infer<typeof synevoValue>;

/** The laboratory integration as read: the password never leaves the server. */
export const synevoView = z.object({
  login: z.string(),
  password: z.literal(''),
  password_set: z.boolean(),
  unit_code: z.string(),
  enable_results_import: z.boolean(),
});
export type SynevoView = z.infer<typeof synevoView>;

/**
 * The courier's and the support line's numbers, both required (docs/product-rules.md "Validation"):
 * a Polish number's 9 digits, entered with or without +48. Empty only while never saved (the
 * default).
 */
export const phoneValue = z.object({ courier: phoneField(), support: phoneField() });
export type PhoneValue = z.infer<typeof phoneValue>;
/** As read: the stored digits (response schemas take no transforms, docs/stack-notes.md). */
export const phoneView = z.object({ courier: z.string(), support: z.string() });

export const visitWindow = z.object({
  /** The visit's number (the first visit is day 0 and has no window). */
  visit: z.number({ error: 'invalid_number' }).int({ error: 'invalid_number' }).min(2).max(99),
  /** Target day counted from the first visit. */
  day: z.number({ error: 'invalid_number' }).int({ error: 'invalid_number' }).min(1).max(3650),
  /** Allowed distance from the target day, either way. */
  window_days: z
    .number({ error: 'invalid_number' })
    .int({ error: 'invalid_number' })
    .min(0)
    .max(365),
});
export type VisitWindow = z.infer<typeof visitWindow>;

/** The laboratory samples go to, copied onto each sample when it is created. */
export const laboratoryValue = z.object({
  address: settingText(),
  postcode: settingText(),
  city: settingText(),
});
export type LaboratoryValue = z.infer<typeof laboratoryValue>;

/** The postal service's page where a coordinator orders a shipment (the samples tab's "order"). */
export const shippingValue = z.object({
  // Single-line first: the URL parser would drop a tab or a line break unseen.
  url: text({ max: 2000, error: 'required' }).pipe(
    z.url({ protocol: /^https?$/, error: 'invalid' }),
  ),
});
export type ShippingValue = z.infer<typeof shippingValue>;

/**
 * How many years after a patient's participation ended the identity is kept before the
 * retention job anonymises it (ADR 059); null (the default) keeps it and refuses a run.
 */
export const retentionValue = z.object({
  years: z
    .number({ error: 'invalid_number' })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid' })
    .max(100, { error: 'invalid' })
    .nullable(),
});
export type RetentionValue = z.infer<typeof retentionValue>;

/**
 * The dashboard's recruitment target (ADR 060): patients per unit per month and/or in total for
 * the study; null where none is set.
 */
const targetCount = z
  .number({ error: 'invalid_number' })
  .int({ error: 'invalid_number' })
  .min(1, { error: 'invalid_number' })
  .max(1_000_000, { error: 'invalid_number' })
  .nullable();
export const recruitmentTargetValue = z.object({
  per_unit_month: targetCount,
  total: targetCount,
});
export type RecruitmentTargetValue = z.infer<typeof recruitmentTargetValue>;

/** Visits are booked at most this many days ahead unless the setting says otherwise (ADR 038). */
export const BOOKING_HORIZON_DAYS_DEFAULT = 730;
export const BOOKING_HORIZON_DAYS_MAX = 3650;

const hour = z.number({ error: 'invalid_number' }).int({ error: 'invalid_number' }).min(0).max(24);

export const visitsValue = z
  .object({
    visit_start_hour: hour,
    visit_end_hour: hour,
    meeting_length_minutes: z
      .number({ error: 'invalid_number' })
      .int({ error: 'invalid_number' })
      .min(5)
      .max(240),
    schedule: z.array(visitWindow).max(98),
    /**
     * How many days ahead of today a visit may be booked or moved to (ADR 038). Optional in a
     * body (a client that predates it saves the default), always present as read.
     */
    booking_horizon_days: z
      .number({ error: 'invalid_number' })
      .int({ error: 'invalid_number' })
      .min(1, { error: 'invalid' })
      .max(BOOKING_HORIZON_DAYS_MAX, { error: 'invalid' })
      .default(BOOKING_HORIZON_DAYS_DEFAULT),
  })
  .superRefine((value, ctx) => {
    if (value.visit_end_hour <= value.visit_start_hour) {
      ctx.addIssue({ code: 'custom', path: ['visit_end_hour'], message: 'end_before_start' });
    } else if (
      ((value.visit_end_hour - value.visit_start_hour) * 60) % value.meeting_length_minutes !==
      0
    ) {
      // A remainder would leave a gap at the day's end no visit can fill: 8–16 with 45 minutes
      // ends the last visit at 15:15 and wastes 45 minutes every day, unnoticed.
      ctx.addIssue({
        code: 'custom',
        path: ['meeting_length_minutes'],
        message: 'length_not_dividing_day',
      });
    }
    // Visits in order, each later than the one before: the schedule reads as a timeline.
    value.schedule.forEach((entry, i) => {
      const before = value.schedule[i - 1];
      if (before && entry.visit <= before.visit)
        ctx.addIssue({ code: 'custom', path: ['schedule', i, 'visit'], message: 'invalid' });
      if (before && entry.day <= before.day)
        ctx.addIssue({ code: 'custom', path: ['schedule', i, 'day'], message: 'invalid' });
    });
  });
export type VisitsValue = z.infer<typeof visitsValue>;

/**
 * Visit 2 at day 28 ± 3, then every 28 days ± 7, up to visit 10 (docs/product-rules.md "Visit
 * windows").
 */
const defaultSchedule: VisitWindow[] = Array.from({ length: 9 }, (_, i) => ({
  visit: i + 2,
  day: 28 * (i + 1),
  window_days: i === 0 ? 3 : 7,
}));

/** What each key reads as when nothing was saved. */
export const SETTING_DEFAULTS: {
  probe_config: ProbeConfigValue;
  synevo: SynevoView;
  phone: PhoneValue;
  visits: VisitsValue;
  laboratory: LaboratoryValue;
  shipping: ShippingValue;
  retention: RetentionValue;
  recruitment_target: RecruitmentTargetValue;
} = {
  probe_config: [
    'sex',
    'project_number',
    'unit_id',
    'next_probe_number',
    'group_id',
    'material_type_and_place',
  ],
  synevo: {
    login: '',
    password: '',
    password_set: false,
    unit_code: '',
    // The switch is on by default; nothing arrives until a login and password are saved.
    enable_results_import: true,
  },
  phone: { courier: '', support: '' },
  visits: {
    visit_start_hour: 8,
    visit_end_hour: 16,
    meeting_length_minutes: 30,
    schedule: defaultSchedule,
    booking_horizon_days: BOOKING_HORIZON_DAYS_DEFAULT,
  },
  laboratory: { address: '', postcode: '', city: '' },
  // Pocztex, the Polish post's courier service: where a parcel is ordered online.
  shipping: { url: 'https://www.pocztex.pl/' },
  retention: { years: null },
  recruitment_target: { per_unit_month: null, total: null },
};

/**
 * A key's stored value over its defaults, as every reader sees it (the one place that merges
 * them, ADR 046): a list (the sample number) is the stored one unless none or an empty one was
 * stored; an object is the defaults with the stored fields over them, so a field added to a schema
 * later reads sensibly. The synevo password is never in the stored value (it is sealed apart).
 */
export function settingWithDefaults<N extends keyof typeof SETTING_DEFAULTS>(
  name: N,
  stored: unknown,
): (typeof SETTING_DEFAULTS)[N] {
  const defaults = SETTING_DEFAULTS[name];
  if (Array.isArray(defaults)) {
    return (Array.isArray(stored) && stored.length > 0 ? stored : defaults) as typeof defaults;
  }
  return stored && typeof stored === 'object' && !Array.isArray(stored)
    ? { ...defaults, ...stored }
    : defaults;
}

/** The keys a client may save, each with the schema of its value. */
export const settingValueSchemas = {
  probe_config: probeConfigValue,
  synevo: synevoValue,
  phone: phoneValue,
  visits: visitsValue,
  laboratory: laboratoryValue,
  shipping: shippingValue,
  retention: retentionValue,
  recruitment_target: recruitmentTargetValue,
} as const;
export type WritableSettingName = keyof typeof settingValueSchemas;
export const WRITABLE_SETTING_NAMES = Object.keys(settingValueSchemas) as WritableSettingName[];

/** Written by the laboratory connector, read by the integration screen; null until an error. */
export const SYNEVO_LAST_ERROR = 'synevo_last_error_message';
export type SettingName = WritableSettingName | typeof SYNEVO_LAST_ERROR;

/** What `GET /api/settings/{name}` answers as `value`, per key. */
export interface SettingValues {
  probe_config: ProbeConfigValue;
  synevo: SynevoView;
  phone: PhoneValue;
  visits: VisitsValue;
  laboratory: LaboratoryValue;
  shipping: ShippingValue;
  retention: RetentionValue;
  recruitment_target: RecruitmentTargetValue;
  /** The last error's text, as the API has always answered it; its structured form is `error`. */
  synevo_last_error_message: string | null;
}

export const settingParams = z.object({ name: text({ max: 64 }) });

/**
 * `POST /api/settings/{name}` body. `version` is the one the client read (0 for a key never
 * saved): a stale one answers 409 `{status:"conflict"}`. Without it the save simply wins.
 */
export const settingBody = z.object({
  value: z.unknown(),
  version: z.number({ error: 'invalid_number' }).int().min(0).optional(),
});
export type SettingBody = z.infer<typeof settingBody>;

/** Any key's value, for the API document; the per-key shapes are the schemas above. */
const anySettingValue = z.union([
  probeConfigValue,
  synevoView,
  phoneView,
  visitsValue,
  z.object({ address: z.string(), postcode: z.string(), city: z.string() }),
  z.object({ url: z.string() }),
  z.object({ years: z.number().int().nullable() }),
  recruitmentTargetValue,
  z.string().nullable(),
]);

export const settingResponse = z.object({
  data: z.object({
    value: anySettingValue,
    version: z.number().int(),
    /**
     * Only for `synevo_last_error_message`: the last error with its code, the sample and
     * analyte it names and when (ADR 032), beside `value`, which keeps the text it always was.
     */
    error: labLastError.nullable().optional(),
  }),
});
export const settingSaved = settingResponse.extend({ status: z.literal('success') });

/**
 * `GET /api/support` (public): the support line as shown ("+48 600 100 200"), null while not
 * set. The login page and the credential sheets show it; no other setting is exposed.
 */
export const supportResponse = z.object({ support: z.string().nullable() });
export type SupportResponse = z.infer<typeof supportResponse>;
