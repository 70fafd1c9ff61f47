import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { orderRefusalKey } from './decision-errors';

describe('orderRefusalKey', () => {
  it('names a deleted patient apart from a decision made elsewhere', () => {
    const refusal = (httpStatus: number, status: string) => new ApiError(httpStatus, status);
    expect(orderRefusalKey(refusal(409, 'patient_deleted'))).toBe('probeSets.patientDeleted');
    expect(orderRefusalKey(refusal(409, 'already_decided'))).toBe('probeSets.movedOn');
    expect(orderRefusalKey(refusal(409, 'not_accepted'))).toBe('probeSets.movedOn');
    expect(orderRefusalKey(refusal(422, 'validation_error'))).toBeNull();
    expect(orderRefusalKey(new Error('network'))).toBeNull();
  });
});
