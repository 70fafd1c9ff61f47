import { describe, expect, it } from 'vitest';
import { columnsError } from './report-columns';

describe('columnsError', () => {
  it('names the rule: none → empty, one → not valid, two or more → nothing', () => {
    expect(columnsError([])).toBe('empty');
    expect(columnsError(['patient_id'])).toBe('not_valid');
    expect(columnsError(['patient_id', 'probe_code'])).toBeNull();
  });
});
