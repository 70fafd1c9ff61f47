import { z } from 'zod';
import { monitoringFacts, signature } from './monitoring.js';
import { reasonField, recordLock, signedRecordAbilities } from './records.js';
import { LABEL_AMOUNT_DEFAULT, LABEL_AMOUNT_MAX } from '../constants.js';
import {
  dayField,
  idField,
  idListField,
  queryIdField,
  multilineText,
  optionalMultilineText,
  requiredId,
  requiredText,
  typeError,
} from '../validation.js';
import { labRefusal } from './laboratory.js';
import { pagedListQuery, pagedResponse, versionField } from './common.js';
import { RICH_TEXT_MAX } from './patient-records.js';

/**
 * Samples (docs/product-rules.md "Records and their states", "Validation", "Out of norm", "Probe
 * number", "Labels", "Sample results", "Safety alerts"; docs/api-conventions.md "Probe", "Safety
 * alert"; ADR 030).
 */

export const PROBE_STATUSES = ['collected', 'sent', 'received'] as const;
export type ProbeStatus = (typeof PROBE_STATUSES)[number];
export const TYPES_OF_TEST = ['biochemistry', 'drug_concentration'] as const;
export const TYPES_OF_MATERIAL = ['venous', 'capillary'] as const;
export const COLLECT_PLACES = ['clinic', 'home'] as const;
export const BIOCHEMISTRY_ANALYTES = ['alt', 'ast', 'creatine', 'bilirubine'] as const;
export type BiochemistryAnalyte = (typeof BIOCHEMISTRY_ANALYTES)[number];

/** A day given as YYYY-MM-DD (required). */
const day = () => z.string({ error: 'required' }).pipe(dayField());

/**
 * POST /api/probes and POST /api/probes/generate_code/{patient_id} (the preview takes the same
 * body and ignores what it does not need). `date_of_sample` may not lie in the future (422
 * `future_date`, checked on the server against the Warsaw day).
 */
export const probeBody = z.object({
  patient_id: requiredId(),
  visit_id: idField().nullish(),
  medicine_ids: z
    .array(idField('invalid'), { error: 'required' })
    .min(1, { error: 'required' })
    .max(50, { error: 'too_long' }),
  date_of_sample: day(),
  carrier_id: requiredId(),
  ordered_by_firstname: requiredText(),
  ordered_by_surname: requiredText(),
  ordered_at: day(),
  patient_firstname: requiredText(),
  patient_surname: requiredText(),
  patient_address_street: requiredText(),
  patient_address_building: requiredText(),
  patient_address_postcode: requiredText(),
  patient_address_city: requiredText(),
  is_cito: z.boolean({ error: 'invalid' }).default(true),
  type_of_test: z.enum(TYPES_OF_TEST, { error: 'invalid' }).default('biochemistry'),
  type_of_material: z.enum(TYPES_OF_MATERIAL, { error: 'invalid' }).default('venous'),
  collect_place: z.enum(COLLECT_PLACES, { error: 'invalid' }).default('clinic'),
  /**
   * The kit a home sample was drawn with (issue 11): a kit of an accepted order of the same
   * patient, only with `collect_place: "home"` (422 `invalid` otherwise, checked on the server).
   */
  probe_set_kit_id: idField().nullish(),
});
export type ProbeBody = z.infer<typeof probeBody>;
export type ProbeBodyInput = z.input<typeof probeBody>;

/**
 * The preview needs only what the number is built from; the rest of the form may still be
 * empty while the nurse types.
 */
export const probeCodePreviewBody = probeBody
  .pick({ type_of_material: true, collect_place: true })
  .extend({ patient_id: idField().optional() })
  .loose();
export const probeCode = z.object({ code: z.string() });

/** A reference range resolved for the patient's sex ("<" limits in `below`). */
export const referenceRange = z.object({
  unit: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  below: z.number().nullable(),
  /** Present ('laboratory') when the laboratory sent its own range with the result (issue 12). */
  source: z.literal('laboratory').optional(),
});

export const shipment = z.object({
  tracking_code: z.string().nullable(),
  last_status: z.string().nullable(),
  last_status_date: z.string().nullable(),
});
export type Shipment = z.infer<typeof shipment>;

export const probe = z.object({
  id: z.number().int(),
  code: z.string(),
  status: z.enum(PROBE_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  date_of_sample: z.string(),
  type_of_test: z.enum(TYPES_OF_TEST),
  type_of_material: z.enum(TYPES_OF_MATERIAL),
  collect_place: z.enum(COLLECT_PLACES),
  is_cito: z.boolean(),
  carrier_id: z.number().int(),
  carrier: z.object({ id: z.number().int(), name: z.string() }),
  medicine_ids: z.array(z.number().int()),
  ordered_by_firstname: z.string(),
  ordered_by_surname: z.string(),
  ordered_at: z.string(),
  patient_firstname: z.string(),
  patient_surname: z.string(),
  patient_address_street: z.string(),
  patient_address_building: z.string(),
  patient_address_postcode: z.string(),
  patient_address_city: z.string(),
  patient_id: z.number().int(),
  /** The patient's sex: the ranges below are the ones for it. */
  patient_sex: z.enum(['M', 'K']),
  visit_id: z.number().int().nullable(),
  laboratory: z.object({ address: z.string(), postcode: z.string(), city: z.string() }).nullable(),
  /** The probe set the sample travels in, with its shipment (issue 11); null until then. */
  set: z.object({ id: z.number().int(), shipment: shipment.nullable() }).nullable(),
  /** Rich text, sanitised on the server; null when none were reported. */
  adverse_events: z.string().nullable(),
  biochemistry_results: z.object({
    alt: z.number().nullable(),
    ast: z.number().nullable(),
    creatine: z.number().nullable(),
    bilirubine: z.number().nullable(),
  }),
  concentrations_results: z.object({
    hours: z.number().nullable(),
    date_of_analysis: z.string().nullable(),
    concentrations: z.array(
      z.object({ medicine_id: z.number().int(), value: z.number().nullable() }),
    ),
  }),
  /**
   * The reference range of each result for the patient's sex, keyed `alt`, `ast`, `creatine`,
   * `bilirubine` and `medicine_{id}`; a result without a range has no key.
   */
  concentration_range: z.record(z.string(), referenceRange),
  /** The keys of `concentration_range` whose result is out of norm. */
  results_out_of_norm: z.array(z.string()),
  /**
   * How the laboratory qualified a result (HL7 SN, ADR 033), keyed like `concentration_range`:
   * `<` 0.5 below a detection limit, `>` 1000 above the measuring range, `-` a range to `upper`.
   * A result without a key is a plain value.
   */
  result_comparators: z.record(
    z.string(),
    z.object({ comparator: z.enum(['<', '<=', '>', '>=', '-']), upper: z.number().nullable() }),
  ),
  /**
   * The laboratory's comments (HL7 NTE and text OBX): `sample` on the whole sample, `results`
   * per analyte (keyed like `concentration_range`). Plain text; lines separated by newlines.
   */
  lab_comments: z.object({
    sample: z.string().nullable(),
    results: z.record(z.string(), z.string()),
  }),
  results_at: z.string().nullable(),
  /** The reception scan at the laboratory: when and by whom. */
  arrived_at: z.string().nullable(),
  arrived_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  version: z.number().int(),
});
export type Probe = z.infer<typeof probe>;

/**
 * GET /api/probes/{id}: the sample with the laboratory's refusals of its results since they were
 * last stored (ADR 032), newest first; empty when none.
 */
export const probeDetail = probe.extend({
  lab_refusals: z.array(labRefusal),
  // Signatures (ADR 050), verification and queries (ADR 051).
  signatures: z.array(signature).optional(),
  /** The record's lock (null: not locked) and what the user may do with it (ADR 048). */
  lock: recordLock.optional(),
  record_abilities: signedRecordAbilities.optional(),
  ...monitoringFacts.partial().shape,
});
export type ProbeDetail = z.infer<typeof probeDetail>;

export const probeCreated = z.object({ status: z.literal('success'), probe });
export const probeSaved = probeCreated;
export const probeList = z.object({ data: z.array(probe) });

/** GET /api/probes/order_link: the postal service's page (setting `shipping`), for every role. */
export const orderLink = z.object({ url: z.string() });

/** GET /api/probes/carriers. */
export const carrier = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The materials the carrier is meant for (ADR 041); a DBS card takes capillary blood only. */
  materials: z.array(z.enum(TYPES_OF_MATERIAL)),
});
export type Carrier = z.infer<typeof carrier>;

/**
 * Whether a carrier is meant for a material (ADR 041): the one rule the sample dialog asks
 * about before it saves (the API takes what it is sent; the audit trail shows it).
 */
export function carrierFitsMaterial(
  carrier: { materials: readonly string[] },
  material: (typeof TYPES_OF_MATERIAL)[number],
): boolean {
  return carrier.materials.includes(material);
}
export const carrierList = z.object({ data: z.array(carrier) });

/**
 * GET /api/probes (docs/product-rules.md "Lists and paging": patientIds, from_date, to_date on the
 * created day, paging, sort).
 */
export const PROBE_ORDER_BY = [
  'created_at',
  'code',
  'patient',
  'type_of_material',
  'status',
  // The kit's shipment status (ADR 039).
  'shipment_status',
] as const;
/**
 * The analytes a list can be narrowed to out-of-norm results of (the dashboard's rates, ADR 060):
 * the biochemistry, or a drug concentration as `medicine_{id}`.
 */
export const outOfNormAnalyteField = () =>
  z.string().regex(/^(alt|ast|creatine|bilirubine|medicine_[1-9]\d{0,8})$/, {
    error: 'invalid',
  });

export const probeListQuery = pagedListQuery(PROBE_ORDER_BY).extend({
  patientIds: idListField().optional(),
  from_date: dayField().optional(),
  to_date: dayField().optional(),
  /** The dashboard's filters (ADR 060): the sample's status, its patient's unit, and ... */
  status: z.enum(PROBE_STATUSES, { error: 'invalid' }).optional(),
  unit_id: queryIdField().optional(),
  /** ... samples whose result of this analyte is out of norm. */
  out_of_norm: outOfNormAnalyteField().optional(),
});
export type ProbeListQuery = z.infer<typeof probeListQuery>;
export const probeListItem = z.object({
  id: z.number().int(),
  code: z.string(),
  created_at: z.string(),
  date_of_sample: z.string(),
  status: z.enum(PROBE_STATUSES),
  type_of_test: z.enum(TYPES_OF_TEST),
  type_of_material: z.enum(TYPES_OF_MATERIAL),
  collect_place: z.enum(COLLECT_PLACES),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string() }),
  /** The shipment of the sample's set; null (shown "-") when none. */
  shipment: shipment.nullable(),
});
export type ProbeListItem = z.infer<typeof probeListItem>;
export const probePage = pagedResponse(probeListItem);

/** PUT /api/probes/{id}: the adverse events (rich text; empty clears them). */
export const adverseEventsBody = z.object({
  adverse_events: multilineText({ max: RICH_TEXT_MAX, trim: false }).nullable(),
  version: versionField().optional(),
});

/**
 * A measured value: a finite number from 0 up to a plausible maximum, or null (not measured;
 * sending null clears a wrong value). Text, NaN, Infinity and 1e400 are refused.
 */
export const resultValue = (max: number) =>
  z
    .number({ error: 'invalid_number' })
    .min(0, { error: 'negative_value' })
    .max(max, { error: 'implausible_value' })
    .nullable();

/** Upper bounds of what a laboratory can report, far above any real value. */
export const RESULT_PLAUSIBLE_MAX = {
  alt: 100_000,
  ast: 100_000,
  creatine: 100,
  bilirubine: 100,
  concentration: 1_000_000,
  hours: 10_000,
} as const;

/**
 * PUT /api/probes/{id}/results: either part or both; what is absent stays as it was. Each change
 * is audited with the old and the new value (the trigger on probes and probe_medicines).
 */
export const probeResultsBody = z
  .object({
    biochemistry_results: z
      .object({
        alt: resultValue(RESULT_PLAUSIBLE_MAX.alt).optional(),
        ast: resultValue(RESULT_PLAUSIBLE_MAX.ast).optional(),
        creatine: resultValue(RESULT_PLAUSIBLE_MAX.creatine).optional(),
        bilirubine: resultValue(RESULT_PLAUSIBLE_MAX.bilirubine).optional(),
      })
      .optional(),
    concentrations_results: z
      .object({
        hours: resultValue(RESULT_PLAUSIBLE_MAX.hours).optional(),
        date_of_analysis: dayField().nullish(),
        concentrations: z
          .array(
            z.object({
              medicine_id: idField('invalid'),
              value: resultValue(RESULT_PLAUSIBLE_MAX.concentration),
            }),
          )
          .max(50, { error: 'too_long' })
          .optional(),
      })
      .optional(),
    version: versionField().optional(),
    /** Required once the sample has results (ADR 048). */
    ...reasonField,
  })
  .refine((body) => body.biochemistry_results || body.concentrations_results, {
    error: 'required',
    path: ['biochemistry_results'],
  });
export type ProbeResultsBody = z.infer<typeof probeResultsBody>;

/** A label amount: a whole number from 0 to 10; outside that `amount_out_of_range`. */
export const labelAmountField = (source: 'query' | 'body' = 'query') =>
  // A query string is text; a JSON body holds a number, and "2" there is a wrong type (ADR 037).
  (source === 'query'
    ? z.coerce.number({ error: 'invalid_number' })
    : z.number({ error: typeError('required', 'invalid_number') })
  )
    .int({ error: 'invalid_number' })
    .min(0, { error: 'amount_out_of_range' })
    .max(LABEL_AMOUNT_MAX, { error: 'amount_out_of_range' });

/** GET /api/probes/{id}/label.zpl|pdf?amount= (0–10, default 1). */
export const labelQuery = z.object({ amount: labelAmountField().default(LABEL_AMOUNT_DEFAULT) });
/**
 * GET /api/probe-sets/{id}/label.zpl|pdf?amount=: labels per kit (0–10), by default the order's
 * `labels_amount` (ADR 035).
 */
export const kitLabelQuery = z.object({ amount: labelAmountField().optional() });

/**
 * POST /api/probes/receive: one scanned label. A scanner may end the code with a line end (its
 * Enter): whitespace around the code is dropped first; a line break inside it is refused like in
 * any single-line field (ADR 037).
 */
export const receiveBody = z.object({
  code: z.string({ error: 'required' }).trim().pipe(requiredText(64)),
});
export const receivedProbe = z.object({
  id: z.number().int(),
  code: z.string(),
  status: z.enum(PROBE_STATUSES),
  /** What the label shows, so that the reception can reprint a worn label at once. */
  type_of_material: z.enum(TYPES_OF_MATERIAL),
  collect_place: z.enum(COLLECT_PLACES),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string() }),
  arrived_at: z.string(),
  arrived_by: z.object({ id: z.number().int(), name: z.string() }),
});
/** 200 on the first scan; 409 `already_received` (with the first scan's data) on another. */
export const receiveResponse = z.object({ status: z.literal('success'), probe: receivedProbe });
export const alreadyReceivedResponse = z.object({
  status: z.literal('already_received'),
  probe: receivedProbe,
});

// ---------------------------------------------------------------------------------------------
// Safety alerts (docs/product-rules.md "Safety alerts"; docs/api-conventions.md "Safety alert").

export const SAFETY_RULES = ['hys_law', 'qtcf_500', 'qtcf_delta_60'] as const;
export type SafetyRule = (typeof SAFETY_RULES)[number];

export const safetyAlert = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  patient: z.object({ firstname: z.string(), surname: z.string() }),
  rule: z.enum(SAFETY_RULES),
  /** The values that fired the rule and their limits, e.g. `{alt: 200, alt_uln: 59}`. */
  details: z.record(z.string(), z.number()),
  created_at: z.string(),
  probe_id: z.number().int().nullable(),
  visit_id: z.number().int().nullable(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.number().int().nullable(),
  acknowledged_by_name: z.string().nullable(),
  acknowledge_comment: z.string().nullable(),
  version: z.number().int(),
});
export type SafetyAlert = z.infer<typeof safetyAlert>;

export const ALERT_ORDER_BY = ['created_at'] as const;
export const alertListQuery = pagedListQuery(ALERT_ORDER_BY).extend({
  status: z.enum(['open', 'acknowledged'], { error: 'invalid' }).optional(),
  patientIds: idListField().optional(),
  /** The patients' unit (ADR 060: the dashboard's tile of one unit). */
  unit_id: queryIdField().optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;
export const alertPage = pagedResponse(safetyAlert);
export const acknowledgeBody = z.object({
  comment: optionalMultilineText(1000),
  version: versionField().optional(),
});
export const alertSaved = z.object({ status: z.literal('success'), alert: safetyAlert });
export type AlertSaved = z.infer<typeof alertSaved>;
export type AlertPage = z.infer<typeof alertPage>;
/** 409 on PUT /api/alerts/{id}/acknowledge when someone acknowledged it first. */
export const alreadyAcknowledgedResponse = z.object({ status: z.literal('already_acknowledged') });
