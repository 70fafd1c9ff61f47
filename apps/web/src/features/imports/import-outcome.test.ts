import { describe, expect, it } from 'vitest';
import { isApiError } from '../../lib/api';
import { outcomeOf } from './import-outcome';

describe('outcomeOf', () => {
  it('reads a success and a rejected batch as answers, not failures', () => {
    expect(outcomeOf(200, { status: 'success', batch_id: 3, imported: { patients: 2 } })).toEqual({
      status: 'success',
      batch_id: 3,
      imported: { patients: 2 },
    });
    const errors = ['a.csv, wiersz 3, kolumna pesel: Niepoprawny numer PESEL'];
    expect(outcomeOf(422, { status: 'error', errors })).toEqual({ status: 'error', errors });
  });

  it('throws other answers with their field errors', () => {
    let thrown: unknown;
    try {
      outcomeOf(422, { status: 'validation_error', errors: { files: ['Za dużo plików'] } });
    } catch (error) {
      thrown = error;
    }
    expect(isApiError(thrown) && thrown.httpStatus === 422 && thrown.errors).toEqual({
      files: ['Za dużo plików'],
    });
    expect(() => outcomeOf(403, { status: 'forbidden' })).toThrow('403 forbidden');
    expect(() => outcomeOf(200, null)).toThrow();
  });
});
