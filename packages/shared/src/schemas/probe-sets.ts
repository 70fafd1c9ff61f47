import { z } from 'zod';
import {
  dayField,
  idListField,
  pathIdField,
  requiredId,
  requiredMultilineText,
  requiredText,
  typeError,
} from '../validation.js';
import { pagedListQuery, pagedResponse, versionField } from './common.js';
import { LABEL_AMOUNT_DEFAULT } from '../constants.js';
import { labelAmountField, shipment } from './probes.js';

/**
 * Kit orders (probe sets) and their shipments (spec §3 "Probe set", §4, §5 "Rejecting a probe
 * set", §7 "Probe sets"; design §5 "Shipments", §6 "Probe set"; ADR 031).
 */

/** 0 registered (new), 1 accepted, 2 rejected (spec §3). */
export const PROBE_SET_STATUSES = [0, 1, 2] as const;
export type ProbeSetStatus = (typeof PROBE_SET_STATUSES)[number];
/** The most kits one order may ask for (a database CHECK too). */
export const PROBE_SET_AMOUNT_MAX = 20;

/**
 * A waybill number as typed: spaces and dashes are dropped and letters upper-cased, then 4–40
 * letters and digits (Poczta Polska's 13–20 digit numbers and S10 codes like RR123456789PL).
 */
export const TRACKING_CODE_PATTERN = /^[A-Z0-9]{4,40}$/;
export const trackingCodeField = () =>
  requiredText(200)
    .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase())
    .pipe(z.string().regex(TRACKING_CODE_PATTERN, { error: 'invalid' }));

const count = (max: number) =>
  // A JSON number: "2" is refused like any wrong type (ADR 037).
  z
    .number({ error: typeError('required', 'invalid_number') })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid' })
    .max(max, { error: 'invalid' });

/**
 * POST /api/probe-sets (staff, from the patient card) and POST /api/me/probe-sets (the patient,
 * whose own id replaces `patient_id`). The address defaults to the patient's on the form.
 */
export const probeSetBody = z.object({
  patient_id: requiredId(),
  amount: count(PROBE_SET_AMOUNT_MAX),
  labels_amount: labelAmountField('body').default(LABEL_AMOUNT_DEFAULT),
  street: requiredText(),
  building: requiredText(),
  postcode: requiredText(),
  city: requiredText(),
});
export type ProbeSetBody = z.infer<typeof probeSetBody>;
export type ProbeSetBodyInput = z.input<typeof probeSetBody>;
/** The patient API's order: the same without `patient_id`. */
export const ownProbeSetBody = probeSetBody.omit({ patient_id: true });
export type OwnProbeSetBody = z.infer<typeof ownProbeSetBody>;

/** PUT /api/probe-sets/{id}: accept, or reject with a reason; only from status 0 (else 409). */
export const probeSetDecisionBody = z.discriminatedUnion(
  'status',
  [
    z.object({ status: z.literal(1), version: versionField() }),
    z.object({
      status: z.literal(2),
      reason: requiredMultilineText(1000),
      version: versionField(),
    }),
  ],
  { error: 'invalid' },
);
export type ProbeSetDecisionBody = z.infer<typeof probeSetDecisionBody>;

/** PUT /api/probe-sets/tracking/{kit id}: a kit's waybill, only on an accepted set. */
export const trackingBody = z.object({
  tracking_code: trackingCodeField(),
  version: versionField(),
});
export type TrackingBody = z.infer<typeof trackingBody>;

/** One event of a kit's tracking history, oldest first. */
export const shipmentEvent = z.object({
  status: z.string(),
  occurred_at: z.string(),
  place: z.string().nullable(),
});
export type ShipmentEvent = z.infer<typeof shipmentEvent>;

/** A kit (sub-set) with its shipment; `shipment` is null until a waybill is saved. */
export const probeSetKit = z.object({
  id: z.number().int(),
  kit_number: z.number().int(),
  shipment: shipment.nullable(),
  delivered: z.boolean(),
  /** The last refresh's failure (provider down, garbage); the last known status stays. */
  last_error: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  events: z.array(shipmentEvent),
  version: z.number().int(),
});
export type ProbeSetKit = z.infer<typeof probeSetKit>;

const person = z.object({ firstname: z.string(), surname: z.string() });

export const probeSet = z.object({
  id: z.number().int(),
  created_at: z.string(),
  patient_id: z.number().int(),
  patient: person,
  amount: z.number().int(),
  labels_amount: z.number().int(),
  street: z.string(),
  building: z.string(),
  postcode: z.string(),
  city: z.string(),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Who accepted or rejected it: a doctor's name, else the login (administrators). */
  decided_by: z.string().nullable(),
  /** The order's shipment as a whole: its least advanced kit with a waybill (ADR 031). */
  shipment: shipment.nullable(),
  sets: z.array(probeSetKit),
  version: z.number().int(),
});
export type ProbeSet = z.infer<typeof probeSet>;
export const probeSetSaved = z.object({ status: z.literal('success'), probe_set: probeSet });
export type ProbeSetSaved = z.infer<typeof probeSetSaved>;
export const probeSetList = z.object({ data: z.array(probeSet) });

/** GET /api/probe-sets (spec §7: patientIds, date filters, 20 per page, id descending). */
export const PROBE_SET_ORDER_BY = ['id', 'created_at', 'patient', 'amount', 'status'] as const;
export const probeSetListQuery = pagedListQuery(PROBE_SET_ORDER_BY).extend({
  patientIds: idListField().optional(),
  from_date: dayField().optional(),
  to_date: dayField().optional(),
  status: z.coerce
    .number({ error: 'invalid' })
    .pipe(z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'invalid' }))
    .optional(),
});
export type ProbeSetListQuery = z.infer<typeof probeSetListQuery>;
export const probeSetListItem = probeSet.omit({ sets: true, version: true, decided_by: true });
export type ProbeSetListItem = z.infer<typeof probeSetListItem>;
export const probeSetPage = pagedResponse(probeSetListItem);
export type ProbeSetPage = z.infer<typeof probeSetPage>;

/** POST /api/probe-sets/tracking/refresh: what one run of the tracking job did. */
export const trackingRefreshResult = z.object({
  status: z.literal('success'),
  /** Kits asked about. */
  checked: z.number().int(),
  /** Kits whose status changed. */
  updated: z.number().int(),
  /** Kits the provider failed on (their last known status stays; the error is recorded). */
  failed: z.number().int(),
});
export type TrackingRefreshResult = z.infer<typeof trackingRefreshResult>;

/** A kit id in the path of PUT /api/probe-sets/tracking/{id}. */
export const kitIdParams = z.object({ id: pathIdField() });
