import { z } from 'zod';
import {
  emailField,
  idField,
  phoneField,
  queryIdField,
  requiredId,
  requiredMultilineText,
  requiredText,
  secretText,
} from '../validation.js';
import {
  nullableTimestamp,
  pagedListQuery,
  pagedResponse,
  recordVersion,
  timestamp,
  versionField,
} from './common.js';

// Electronic signatures (ADR 050), monitor accounts, source data verification and queries
// (ADR 051).

export const SIGNED_RECORD_TYPES = ['visit', 'probe'] as const;
export type SignedRecordType = (typeof SIGNED_RECORD_TYPES)[number];
export const SIGNATURE_MEANINGS = ['author', 'approve', 'review'] as const;
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number];
export const MONITORED_RECORD_TYPES = ['patient', 'visit', 'probe'] as const;
export type MonitoredRecordType = (typeof MONITORED_RECORD_TYPES)[number];
export const QUERY_STATUSES = ['open', 'answered', 'closed'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

/**
 * The fields a query may name, per record: the entered data a monitor checks against the source
 * (ADR 051). Identity and contacts are not among them: a monitor does not see them. The server
 * refuses any other name (422 `invalid_field`); the web's field picker offers these.
 */
export const QUERY_FIELDS = {
  patient: [
    'firstname',
    'surname',
    'sex',
    'birth_date',
    'weight',
    'height',
    'project_number',
    'is_above_18',
    'is_classified',
    'is_finished',
    'exclusion_criteria_id',
    'group_id',
    'subgroup_id',
    'dose',
    'interval',
    'medicines',
    'additional_medicines',
  ],
  visit: [
    'date',
    'started_at',
    'ended_at',
    'is_done',
    'comment',
    'qt',
    'rr',
    'pq',
    'qrs',
    'qtcb',
    'qtcfra',
    'window_reason',
    'notes',
  ],
  probe: [
    'date_of_sample',
    'type_of_test',
    'type_of_material',
    'adverse_events',
    'alt',
    'ast',
    'creatine',
    'bilirubine',
    'concentration_hours',
    'concentration_date_of_analysis',
    'medicines',
  ],
} as const satisfies Record<MonitoredRecordType, readonly string[]>;

const recordTypeField = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: 'required' });

export const signatureBody = z.object({
  record_type: recordTypeField(SIGNED_RECORD_TYPES),
  record_id: requiredId(),
  meaning: recordTypeField(SIGNATURE_MEANINGS),
  password: secretText().min(1, { error: 'required' }),
});
export type SignatureBody = z.input<typeof signatureBody>;

export const signature = z.object({
  id: z.number().int(),
  signer: z.object({
    id: z.number().int(),
    firstname: z.string().nullable(),
    surname: z.string().nullable(),
  }),
  meaning: z.enum(SIGNATURE_MEANINGS),
  signed_at: timestamp,
  content_hash: z.string(),
  status: z.enum(['valid', 'invalidated']),
  invalidated_at: nullableTimestamp,
});
export type Signature = z.infer<typeof signature>;
export const signatureList = z.object({ data: z.array(signature) });
export const signatureSaved = z.object({ signature });
export const signatureListQuery = z.object({
  record_type: recordTypeField(SIGNED_RECORD_TYPES),
  record_id: queryIdField('required'),
});

/** A record's verification mark (`null`: not verified now); `changed_after` when a change cleared one. */
export const verificationMark = z
  .object({
    by: z.object({
      id: z.number().int(),
      firstname: z.string().nullable(),
      surname: z.string().nullable(),
    }),
    at: timestamp,
  })
  .nullable();
export type VerificationMark = z.infer<typeof verificationMark>;
export const verificationBody = z.object({
  record_type: recordTypeField(MONITORED_RECORD_TYPES),
  record_id: requiredId(),
});
export const verificationSaved = z.object({
  status: z.literal('success'),
  verified: verificationMark,
});

/** What a signed or monitored record adds to its detail answer. */
export const monitoringFacts = z.object({
  verified: verificationMark,
  /** When a change cleared the last verification mark and none came since; else null. */
  changed_after_verification_at: nullableTimestamp,
  open_queries: z.number().int(),
});
export type MonitoringFacts = z.infer<typeof monitoringFacts>;

export const monitorBody = z.object({
  firstname: requiredText(),
  surname: requiredText(),
  email: emailField(),
  phone_number: phoneField(),
  unit_ids: z
    .array(idField(), { error: 'required' })
    .min(1, { error: 'required' })
    .max(200, { error: 'too_long' }),
});
export type MonitorBody = z.input<typeof monitorBody>;
export const monitorUpdateBody = monitorBody.extend({ version: versionField() });
export type MonitorUpdateBody = z.input<typeof monitorUpdateBody>;

export const monitor = z.object({
  id: z.number().int(),
  firstname: z.string(),
  surname: z.string(),
  email: z.string(),
  phone_number: z.string(),
  unit_ids: z.array(z.number().int()),
  units: z.array(z.object({ id: z.number().int(), name: z.string() })),
  deleted_at: nullableTimestamp,
  version: recordVersion,
});
export type Monitor = z.infer<typeof monitor>;
export const MONITOR_ORDER_BY = ['id', 'surname', 'email'] as const;
export const monitorListQuery = pagedListQuery(MONITOR_ORDER_BY);
export type MonitorListQuery = z.infer<typeof monitorListQuery>;
export const monitorList = pagedResponse(monitor);
export const monitorSaved = z.object({ status: z.literal('success'), data: monitor });
export type MonitorSaved = z.infer<typeof monitorSaved>;

/** A field a query may name: a column-like name of the record (`qt`, `pesel`, `alt`). */
const queryField = z
  .string({ error: 'invalid_field' })
  .regex(/^[a-z_]{1,64}$/, { error: 'invalid_field' });

export const queryBody = z.object({
  record_type: recordTypeField(MONITORED_RECORD_TYPES),
  record_id: requiredId(),
  field: queryField.nullish(),
  text: requiredMultilineText(5000),
});
export type QueryBody = z.input<typeof queryBody>;
export const queryMessageBody = z.object({ text: requiredMultilineText(5000) });

const person = z.object({
  id: z.number().int(),
  firstname: z.string().nullable(),
  surname: z.string().nullable(),
  role: z.string(),
});

export const queryMessage = z.object({
  id: z.number().int(),
  author: person,
  text: z.string(),
  created_at: timestamp,
});

export const dataQuery = z.object({
  id: z.number().int(),
  record_type: z.enum(MONITORED_RECORD_TYPES),
  record_id: z.number().int(),
  patient_id: z.number().int(),
  unit_id: z.number().int(),
  field: z.string().nullable(),
  status: z.enum(QUERY_STATUSES),
  opened_by: person,
  created_at: timestamp,
  updated_at: timestamp,
  closed_at: nullableTimestamp,
  /** Whole days since it was opened. */
  age_days: z.number().int(),
  messages: z.array(queryMessage),
  abilities: z.object({ answer: z.boolean(), close: z.boolean(), reopen: z.boolean() }),
});
export type DataQuery = z.infer<typeof dataQuery>;
/**
 * The unresolved statuses, as the dashboard's open-queries tile and a record's `open_queries`
 * count them (ADR 051); the list's `status=open,answered` is the tile's link (ADR 060).
 */
export const UNRESOLVED_QUERY_STATUSES = ['open', 'answered'] as const;
export const queryListQuery = pagedListQuery(['created_at', 'id'] as const).extend({
  /** One status or several, comma-separated (`open,answered`: the unresolved ones). */
  // Checked as the whole string, so that a bad status is named on `status` itself, not `status.0`.
  status: z
    .string()
    .refine(
      (list) =>
        list.split(',').every((value) => (QUERY_STATUSES as readonly string[]).includes(value)),
      { error: 'invalid' },
    )
    .transform((list) => [...new Set(list.split(',') as QueryStatus[])].sort())
    .optional(),
  unit_id: queryIdField().optional(),
  record_type: z.enum(MONITORED_RECORD_TYPES, { error: 'invalid' }).optional(),
  record_id: queryIdField().optional(),
  patient_id: queryIdField().optional(),
});
export type QueryListQuery = z.infer<typeof queryListQuery>;
export const queryList = pagedResponse(dataQuery);
export const querySaved = z.object({ status: z.literal('success'), query: dataQuery });
