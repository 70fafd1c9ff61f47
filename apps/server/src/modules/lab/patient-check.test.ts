import { describe, expect, it } from 'vitest';
import { patientMismatch, sexFromText } from './patient-check.js';

describe('the patient check shared by the HL7 connector and the data import', () => {
  const patient = { sex: 'K' as const, birth_date: '1975-11-02' };

  it('names the first disagreement; what was not sent is not compared', () => {
    expect(patientMismatch({ sex: 'K', birthDate: '1975-11-02' }, patient)).toBeNull();
    expect(patientMismatch({ sex: null, birthDate: null }, patient)).toBeNull();
    expect(patientMismatch({ sex: 'M', birthDate: '1975-11-02' }, patient)).toBe('sex_mismatch');
    expect(patientMismatch({ sex: 'M', birthDate: '1900-01-01' }, patient)).toBe('sex_mismatch');
    expect(patientMismatch({ sex: null, birthDate: '1975-11-03' }, patient)).toBe(
      'birth_date_mismatch',
    );
  });

  it('reads M, K and HL7’s F in any case; U, O and blank are nothing to compare', () => {
    expect(['m', 'M', ' k ', 'F', 'f'].map(sexFromText)).toEqual(['M', 'M', 'K', 'K', 'K']);
    expect(['', null, 'U', 'o'].map(sexFromText)).toEqual([null, null, null, null]);
    expect(['X', 'kobieta', '1', 'MK'].map(sexFromText)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
