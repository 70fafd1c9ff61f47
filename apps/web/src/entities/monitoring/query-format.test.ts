import { describe, expect, it } from 'vitest';
import { suggestedReason } from '../../components/reason-suggestion';
import { correctionPath, recordPath } from './query-format';

const query = { id: 7, patient_id: 3, record_id: 11 };

describe('a query’s way to its record', () => {
  it('opens the visit card, the sample’s page or the patient card', () => {
    expect(recordPath({ ...query, record_type: 'visit' })).toBe('/patients/3/visits/11');
    expect(recordPath({ ...query, record_type: 'probe' })).toBe('/probes/11');
    expect(recordPath({ ...query, record_type: 'patient', record_id: 3 })).toBe('/patients/card/3');
  });

  it('corrects a patient in the edit wizard and the rest on their page, naming the query', () => {
    expect(correctionPath({ ...query, record_type: 'patient', record_id: 3 })).toBe(
      '/patients/3/edit?query=7',
    );
    expect(correctionPath({ ...query, record_type: 'visit' })).toBe(
      '/patients/3/visits/11?query=7',
    );
    expect(correctionPath({ ...query, record_type: 'probe' })).toBe('/probes/11?query=7');
  });

  it('makes the reason dialog offer "answer to a monitor’s query" only when a query is named', () => {
    expect(suggestedReason('?query=7')).toBe('query_response');
    expect(suggestedReason('?tab=visits&query=7')).toBe('query_response');
    expect(suggestedReason('?tab=visits')).toBeNull();
    expect(suggestedReason('')).toBeNull();
  });
});
