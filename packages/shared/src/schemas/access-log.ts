import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';
import { dayField, idListField, queryIdField } from '../validation.js';
import { totalKind } from './common.js';

/**
 * What a read showed (ADR 052), one short code per kind of answer: a patient's card or one of
 * its tabs, a visit's card, a sample, a printed credential sheet, a downloaded file, a report or
 * an export, a list or a search that showed identities, a revealed identity, the audit trail.
 */
export const READ_KINDS = [
  'patient_card',
  'patient_tab',
  'visit',
  'probe',
  'credentials',
  'file',
  'report',
  'export',
  'search',
  'identity',
  'audit',
] as const;
export type ReadKind = (typeof READ_KINDS)[number];

/** A bound of the range: a calendar day in Warsaw (`YYYY-MM-DD`) or an exact instant. */
const bound = z.union([dayField(), z.iso.datetime({ offset: true, error: 'invalid_date' })]);

export const accessLogQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  page: z.coerce.number().int().min(1).default(1),
  patientIds: idListField().optional(),
  userIds: idListField().optional(),
  from: bound.optional(),
  to: bound.optional(),
  /**
   * Keyset paging (ADR 052): the page that follows the entry with this id (newest first), or the
   * page that precedes it. Either replaces `page`'s offset, so a deep page costs what the first
   * does; `page` still works alone.
   */
  after: queryIdField().optional(),
  before: queryIdField().optional(),
});
export type AccessLogQuery = z.infer<typeof accessLogQuery>;

export const accessLogEntry = z.object({
  id: z.number().int(),
  user: z.object({
    id: z.number().int(),
    login: z.string(),
    firstname: z.string().nullable(),
    surname: z.string().nullable(),
    role: z.string(),
  }),
  at: z.string(),
  address: z.string(),
  kind: z.enum(READ_KINDS),
  patient_ids: z.array(z.number().int()),
});
export type AccessLogEntry = z.infer<typeof accessLogEntry>;

export const accessLogList = z.object({
  data: z.array(accessLogEntry),
  total: z.number().int(),
  total_kind: totalKind,
});
export type AccessLogList = z.infer<typeof accessLogList>;

/** `GET /api/patients/{id}/identity`: what a masked answer hides (ADR 053). */
export const patientIdentity = z.object({
  pesel: z.string(),
  email: z.string().nullable(),
  phone_number: z.string(),
});
export type PatientIdentity = z.infer<typeof patientIdentity>;
