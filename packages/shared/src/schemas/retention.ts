import { z } from 'zod';

/**
 * Retention (ADR 059): `GET /api/retention/preview` lists who a run would anonymise now (the
 * dry run), `POST /api/retention/run` starts the background job, `GET /api/retention/runs/latest`
 * shows its progress. Refused with 422 `retention_not_set` while the `retention` setting holds
 * no years, and with 409 `study_locked` while the study is locked for inspection.
 */
export const RETENTION_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type RetentionRunStatus = (typeof RETENTION_RUN_STATUSES)[number];

/** One patient a run would anonymise: no identity beyond the study's own numbers. */
export const retentionCandidate = z.object({
  id: z.number().int(),
  project_number: z.string().nullable(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  /** When participation ended (the day it was marked finished, or the last visit's day). */
  ended_at: z.string(),
});
export type RetentionCandidate = z.infer<typeof retentionCandidate>;

export const retentionPreviewQuery = z.object({
  limit: z.coerce.number({ error: 'invalid_number' }).int().min(1).max(100).default(20),
  offset: z.coerce.number({ error: 'invalid_number' }).int().min(0).max(2_147_483_647).default(0),
});
export type RetentionPreviewQuery = z.infer<typeof retentionPreviewQuery>;

export const retentionPreview = z.object({
  years: z.number().int(),
  /** Participation that ended before this day (YYYY-MM-DD) is due. */
  cutoff: z.string(),
  study_locked: z.boolean(),
  data: z.array(retentionCandidate),
  total: z.number().int(),
});
export type RetentionPreview = z.infer<typeof retentionPreview>;

/** `POST /api/retention/run`: the administrator confirms having seen the dry run's count. */
export const retentionRunBody = z.object({
  confirm: z.literal(true, { error: 'required' }),
});
export type RetentionRunBody = z.infer<typeof retentionRunBody>;

export const retentionRun = z.object({
  id: z.number().int(),
  status: z.enum(RETENTION_RUN_STATUSES),
  years: z.number().int(),
  requested_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  total: z.number().int(),
  done: z.number().int(),
  error: z.string().nullable(),
});
export type RetentionRun = z.infer<typeof retentionRun>;

export const retentionRunAccepted = z.object({
  status: z.literal('accepted'),
  run: retentionRun,
});
export const retentionLatestRun = z.object({ run: retentionRun.nullable() });
