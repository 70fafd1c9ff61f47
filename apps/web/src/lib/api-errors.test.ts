import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from './api-errors';

describe('api errors', () => {
  it('maps failures to generic messages', () => {
    expect(commonErrorKey(new ApiError(0, 'network_error'))).toBe('common.networkError');
    expect(commonErrorKey(new ApiError(403, 'forbidden'))).toBe('common.forbidden');
    expect(commonErrorKey(new ApiError(404, 'not_found'))).toBe('common.notFound');
    expect(commonErrorKey(new ApiError(422, 'validation_error'))).toBe('common.validationError');
    expect(commonErrorKey(new ApiError(409, 'exist_doctor'))).toBe('common.duplicate');
    expect(commonErrorKey(new ApiError(409, 'exist_admin'))).toBe('common.duplicate');
    expect(commonErrorKey(new ApiError(409, 'exist_monitor'))).toBe('common.duplicate');
    expect(commonErrorKey(new ApiError(409, 'conflict'))).toBe('common.conflict');
    expect(isStaleVersion(new ApiError(409, 'conflict'))).toBe(true);
    expect(isStaleVersion(new ApiError(409, 'exist_admin'))).toBe(false);
    expect(commonErrorKey(new ApiError(409, 'study_locked'))).toBe('common.studyLocked');
    expect(commonErrorKey(new ApiError(409, 'record_locked'))).toBe('common.recordLocked');
    expect(commonErrorKey(new ApiError(500, 'error'))).toBe('common.unexpectedError');
    expect(commonErrorKey(new Error('boom'))).toBe('common.unexpectedError');
  });

  it('keeps the first server message per field', () => {
    const error = new ApiError(422, 'validation_error', {
      errors: { oldPassword: ['Niepoprawne hasło', 'x'], name: [] },
    });
    expect(serverFieldErrors(error)).toEqual({ oldPassword: 'Niepoprawne hasło' });
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });
});
