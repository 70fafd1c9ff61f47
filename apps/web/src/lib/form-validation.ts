import { issuesByField } from '@portal/shared';
import type { ValidationCode } from '@portal/shared';
import type { z } from 'zod';

export type ValidationResult<T> =
  { ok: true; data: T } | { ok: false; codes: Record<string, ValidationCode> };

/**
 * Validates form values with a shared schema, keeping the first message code per field; the
 * codes are the server's, so the form and the API report the same messages.
 */
export function validateWith<S extends z.ZodType>(
  schema: S,
  values: unknown,
): ValidationResult<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const codes: Record<string, ValidationCode> = {};
  for (const [field, list] of Object.entries(issuesByField(result.error.issues))) {
    const first = list[0] as ValidationCode | undefined;
    if (first) codes[field] = first;
  }
  return { ok: false, codes };
}
