import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';
import { pathIdField, text } from '../validation.js';

/** `{status:"success"}` and friends keep the contract's words in `status`. */
export const successResponse = z.object({ status: z.literal('success') });
export type SuccessResponse = z.infer<typeof successResponse>;

export const validationErrorResponse = z.object({
  status: z.literal('validation_error'),
  errors: z.record(z.string(), z.array(z.string())),
});

export const errorResponse = z.object({
  status: z.string(),
  error: z.string().optional(),
  message: z.string().optional(),
  /** Seconds until a locked login may be tried again (429). */
  retry_after: z.number().int().optional(),
});

/**
 * Paged list query with a per-entity allow-list of sort columns: an unknown `order_by` is a
 * validation error and never reaches SQL.
 */
export function pagedListQuery<const T extends readonly [string, ...string[]]>(orderBy: T) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    page: z.coerce.number().int().min(1).default(1),
    order_by: z.enum(orderBy).default(orderBy[0]),
    order_direction: z
      .enum(['asc', 'desc', 'ASC', 'DESC'])
      .default('desc')
      .transform((d) => d.toLowerCase() as 'asc' | 'desc'),
    search: text().optional(),
  });
}

/**
 * How a list's total was counted (ADR 019): `exact`; `at_least` when a filter matched more than
 * COUNT_CAP rows and counting stopped there (shown "10 000+"); `estimate` for a large unfiltered
 * table, taken from the database's statistics instead of counting millions of rows.
 */
export const TOTAL_KINDS = ['exact', 'at_least', 'estimate'] as const;
export const totalKind = z.enum(TOTAL_KINDS);
export type TotalKind = z.infer<typeof totalKind>;

export function pagedResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int(), total_kind: totalKind });
}

export function allResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

/**
 * Optimistic locking (ADR 018): an edit sends back the `version` it read; a stale one answers
 * 409 `conflict`, so that two people editing at once never overwrite each other unseen.
 */
export const versionField = () =>
  z
    .number({ error: 'required' })
    .int({ error: 'required' })
    .positive({ error: 'required' })
    // An integer column: a larger number can never be the stored version.
    .max(2_147_483_647, { error: 'invalid' });
/** The version every editable record carries in its read shape. */
export const recordVersion = z.number().int();

/** A record's id in the path: anything but plain digits answers 404 (ADR 037). */
export const idParams = z.object({ id: pathIdField() });

/** Timestamps leave the server as ISO 8601 strings. */
export const timestamp = z.string();
export const nullableTimestamp = z.string().nullable();

/**
 * What the signed-in user may do with a record (ADR 045): computed per record by the server's
 * policy from the same rules that allow or refuse the write, so a screen offers an action only
 * when the server would accept it and never derives it from the role.
 */
export const recordAbilities = z.object({ edit: z.boolean(), delete: z.boolean() });
export type RecordAbilities = z.infer<typeof recordAbilities>;
