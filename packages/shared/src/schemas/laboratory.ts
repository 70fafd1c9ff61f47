import { z } from 'zod';
import { queryIdField, requiredId, requiredMultilineText } from '../validation.js';
import { pagedListQuery, pagedResponse, versionField } from './common.js';

/**
 * Laboratory results that could not be attached to a sample (docs/api-conventions.md "Laboratory";
 * ADR 032):
 * they wait in "Niedopasowane wyniki" until an administrator matches or discards them.
 */
export const UNMATCHED_REASONS = [
  'no_probe',
  'sex_mismatch',
  'birth_date_mismatch',
  // An OBX-3 code that names no analyte of the study (ADR 033): kept, never attachable.
  'unknown_analyte',
] as const;
export const UNMATCHED_STATUSES = ['open', 'matched', 'discarded'] as const;

export const unmatchedResult = z.object({
  id: z.number().int(),
  source: z.enum(['hl7', 'import']),
  probe_code: z.string(),
  analyte: z.string(),
  value: z.number().nullable(),
  unit: z.string().nullable(),
  lab_range: z.string().nullable(),
  date_of_analysis: z.string().nullable(),
  hours: z.number().nullable(),
  patient_sex: z.string().nullable(),
  patient_birth_date: z.string().nullable(),
  /** PID-5 as the laboratory sent it (family name, given name); null when not sent. */
  patient_firstname: z.string().nullable(),
  patient_surname: z.string().nullable(),
  reason: z.enum(UNMATCHED_REASONS),
  /** The values as the laboratory sent them (segment fields or the import row). */
  raw: z.record(z.string(), z.unknown()),
  status: z.enum(UNMATCHED_STATUSES),
  probe_id: z.number().int().nullable(),
  resolved_at: z.string().nullable(),
  discard_reason: z.string().nullable(),
  created_at: z.string(),
  version: z.number().int(),
});
export type UnmatchedResult = z.infer<typeof unmatchedResult>;

export const unmatchedListQuery = pagedListQuery(['created_at'] as const).extend({
  status: z.enum(UNMATCHED_STATUSES, { error: 'invalid' }).default('open'),
});
export const unmatchedPage = pagedResponse(unmatchedResult);

/**
 * PUT /api/lab/unmatched/{id}: attach to a sample (docs/api-conventions.md). A value the sample already holds is replaced
 * only with `replace: true` (otherwise 409 `would_replace` with what would change).
 */
export const matchBody = z.object({
  probe_id: requiredId(),
  version: versionField().optional(),
  replace: z.boolean({ error: 'invalid' }).optional(),
});

/** A patient as the laboratory sent it or as the sample's record holds it. */
export const matchPatient = z.object({
  sex: z.string().nullable(),
  birth_date: z.string().nullable(),
  firstname: z.string().nullable(),
  surname: z.string().nullable(),
});
/** A value of the sample a match would overwrite: the analyte (or `hours`), now and after. */
export const replacedValue = z.object({
  analyte: z.string(),
  current: z.number(),
  incoming: z.number(),
});
export type ReplacedValue = z.infer<typeof replacedValue>;

/** GET /api/lab/unmatched/{id}/preview?probe_id=: what matching to that sample would do. */
export const matchPreviewQuery = z.object({ probe_id: queryIdField('required') });
export const matchPreview = z.object({
  probe: z.object({ id: z.number().int(), code: z.string() }),
  lab_patient: matchPatient,
  sample_patient: matchPatient,
  /** Fields where the two disagree (what was not sent is not compared). */
  mismatches: z.array(z.enum(['sex', 'birth_date', 'name'])),
  replaces: z.array(replacedValue),
});
export type MatchPreview = z.infer<typeof matchPreview>;
/** 409 from a match that would overwrite a value without `replace: true`. */
export const wouldReplaceResponse = z.object({
  status: z.literal('would_replace'),
  replaces: z.array(replacedValue),
});
/** PUT /api/lab/unmatched/{id}/discard: with a reason. */
export const discardBody = z.object({
  reason: requiredMultilineText(1000),
  version: versionField().optional(),
});
export const unmatchedSaved = z.object({ status: z.literal('success'), result: unmatchedResult });
/** 409 from match or discard: the result was matched or discarded already. */
export const alreadyResolvedResponse = z.object({ status: z.literal('already_resolved') });
export type UnmatchedPage = z.infer<typeof unmatchedPage>;
export type UnmatchedSaved = z.infer<typeof unmatchedSaved>;
export type UnmatchedListQuery = z.infer<typeof unmatchedListQuery>;

/**
 * What went wrong with a laboratory message, as a code and its parameters (ADR 032): the web
 * says it in the user's language, naming the sample and the analyte. The ACK to the laboratory
 * keeps its own English text (`detail`).
 */
export const LAB_ERROR_CODES = [
  'malformed_message',
  'unsupported_message',
  'not_production',
  'unsupported_charset',
  'invalid_bytes',
  'message_too_large',
  'not_er7',
  'control_id_missing',
  'no_results',
  'probe_code_missing',
  'probe_code_too_long',
  'analyte_missing',
  'analyte_repeated',
  'value_type_unsupported',
  'not_a_number',
  'value_unsupported',
  'implausible_value',
  'wrong_unit',
  'unknown_sex',
  'invalid_date',
  'date_in_future',
  'medicine_not_tested',
  'internal_error',
] as const;
export type LabErrorCode = (typeof LAB_ERROR_CODES)[number];

/**
 * The parameters of a laboratory error: the sample's code (OBR-3), the analyte (`alt`, `ast`,
 * `creatine`, `bilirubine`, `medicine_{id}`, `hours`, or the laboratory's own code for a test the
 * study does not know) and the HL7 field (`OBX-5`).
 */
export const labErrorParams = z.object({
  probe_code: z.string().optional(),
  analyte: z.string().optional(),
  field: z.string().optional(),
});
export type LabErrorParams = z.infer<typeof labErrorParams>;

/** The integration's last error (`GET /api/settings/synevo_last_error_message` → value). */
export const labLastError = z.object({
  /** Null only for an error stored before codes existed: then `detail` is all there is. */
  code: z.enum(LAB_ERROR_CODES).nullable(),
  params: labErrorParams,
  /** The text the laboratory's ACK carried (English, for its interface engineer). */
  detail: z.string(),
  /** MSH-10 of the refused message, when it had one. */
  control_id: z.string().nullable(),
  at: z.string().nullable(),
});
export type LabLastError = z.infer<typeof labLastError>;

/**
 * Why results of a sample did not reach it (the sample's page): a message the connector refused
 * (a LAB_ERROR_CODES code; `params.probe_code` names the sample at fault, which may be another
 * sample of the same message), or a result waiting among the unmatched ones because the
 * laboratory's patient disagrees (`sex_mismatch`, `birth_date_mismatch`).
 */
export const labRefusal = z.object({
  at: z.string(),
  code: z.enum([...LAB_ERROR_CODES, 'sex_mismatch', 'birth_date_mismatch']),
  analyte: z.string().nullable(),
  params: labErrorParams,
});
export type LabRefusal = z.infer<typeof labRefusal>;
