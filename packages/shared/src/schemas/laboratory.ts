import { z } from 'zod';
import { requiredId, requiredMultilineText } from '../validation.js';
import { pagedListQuery, pagedResponse, versionField } from './common.js';

/**
 * Laboratory results that could not be attached to a sample (design §6 "Laboratory"; ADR 032):
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

/** PUT /api/lab/unmatched/{id}: attach to a sample (design §6). */
export const matchBody = z.object({ probe_id: requiredId(), version: versionField() });
/** PUT /api/lab/unmatched/{id}/discard: with a reason. */
export const discardBody = z.object({
  reason: requiredMultilineText(1000),
  version: versionField(),
});
export const unmatchedSaved = z.object({ status: z.literal('success'), result: unmatchedResult });
/** 409 from match or discard: the result was matched or discarded already. */
export const alreadyResolvedResponse = z.object({ status: z.literal('already_resolved') });
export type UnmatchedPage = z.infer<typeof unmatchedPage>;
export type UnmatchedSaved = z.infer<typeof unmatchedSaved>;
export type UnmatchedListQuery = z.infer<typeof unmatchedListQuery>;
