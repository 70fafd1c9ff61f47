import { z } from 'zod';

/**
 * The data import (docs/product-rules.md "Imports", "Validation"; docs/api-conventions.md
 * "Import"; ADR 032): each upload is one batch, validated whole before anything is written.
 */
export const IMPORT_MODES = ['patient_data', 'results', 'flush'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
/** The modes that write a batch (a template exists for each). */
export const BATCH_MODES = ['patient_data', 'results'] as const;
export type BatchMode = (typeof BATCH_MODES)[number];
/** Accepted file types (docs/product-rules.md "Validation"). */
export const IMPORT_EXTENSIONS = ['xlsx', 'xls', 'xlsm', 'zip', 'csv', 'xml'] as const;

/** POST /api/data_import/{mode} → 200 on success. */
export const importSuccess = z.object({
  status: z.literal('success'),
  batch_id: z.number().int().nullable(),
  imported: z.record(z.string(), z.number().int()),
});
export type ImportSuccess = z.infer<typeof importSuccess>;
/** → 422: every error as "<file>, wiersz <n>, kolumna <name>: <message>"; nothing written. */
export const importError = z.object({
  status: z.literal('error'),
  errors: z.array(z.string()),
});
export type ImportError = z.infer<typeof importError>;

/** GET /api/data_import/batches: the batches, newest first. */
export const importBatch = z.object({
  id: z.number().int(),
  mode: z.enum(BATCH_MODES),
  files: z.array(z.object({ name: z.string(), size: z.number().int() })),
  counts: z.record(z.string(), z.number().int()),
  created_at: z.string(),
  created_by: z.string().nullable(),
  flushed_at: z.string().nullable(),
});
export type ImportBatch = z.infer<typeof importBatch>;
export const importBatchList = z.object({ data: z.array(importBatch) });

/**
 * Why a flushed patient stayed deleted on restore: an active patient (registered or imported
 * since the flush) has its PESEL, e-mail or project number (ADR 032).
 */
export const RESTORE_SKIP_REASONS = ['pesel_taken', 'email_taken', 'project_number_taken'] as const;
export type RestoreSkipReason = (typeof RESTORE_SKIP_REASONS)[number];
/** PUT /api/data_import/batches/{id}/restore → 200: what came back, and who could not. */
export const restoreResult = z.object({
  status: z.literal('success'),
  /** patients, results, unmatched: how many came back. */
  restored: z.record(z.string(), z.number().int()),
  skipped: z.array(
    z.object({
      patient_id: z.number().int(),
      firstname: z.string(),
      surname: z.string(),
      /** The last four digits only, e.g. "*******1234". */
      pesel_masked: z.string(),
      reason: z.enum(RESTORE_SKIP_REASONS),
    }),
  ),
});
export type RestoreResult = z.infer<typeof restoreResult>;
