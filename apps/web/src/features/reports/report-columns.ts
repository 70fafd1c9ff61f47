import { REPORT_MIN_COLUMNS } from '@portal/shared';

/** The rule: none → "empty", one → "not valid" (the shared validation codes). */
export function columnsError(columns: readonly string[]): 'empty' | 'not_valid' | null {
  if (columns.length === 0) return 'empty';
  return columns.length < REPORT_MIN_COLUMNS ? 'not_valid' : null;
}
