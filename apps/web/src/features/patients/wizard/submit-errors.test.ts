import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { submitFailure } from './submit-errors';

describe('refused registration or edit', () => {
  it('tells a taken PESEL or e-mail apart', () => {
    expect(submitFailure(new ApiError(409, 'exist_patient'))).toEqual({ kind: 'exist_patient' });
  });

  it('keeps the first server message per field', () => {
    const error = new ApiError(422, 'validation_error', {
      errors: {
        'personal.pesel': ['Niepoprawny numer PESEL'],
        'inclusion.dose': ['Wybierz dawkę z listy', 'x'],
      },
    });
    expect(submitFailure(error)).toEqual({
      kind: 'validation',
      errors: {
        'personal.pesel': 'Niepoprawny numer PESEL',
        'inclusion.dose': 'Wybierz dawkę z listy',
      },
    });
  });

  it('treats lost connections and server failures as server errors', () => {
    expect(submitFailure(new ApiError(0, 'network_error'))).toEqual({ kind: 'server' });
    expect(submitFailure(new ApiError(500, 'error'))).toEqual({ kind: 'server' });
    expect(submitFailure(new Error('boom'))).toEqual({ kind: 'server' });
    expect(submitFailure(new ApiError(403, 'forbidden'))).toEqual({ kind: 'forbidden' });
    expect(submitFailure(new ApiError(404, 'not_found'))).toEqual({ kind: 'not_found' });
  });
});
