import { describe, expect, it } from 'vitest';
import { probeListParams } from './probe-list-filters';

describe('probeListParams', () => {
  it('sends nothing for no filter', () => {
    expect(probeListParams({ patientIds: [], range: {} })).toEqual({
      patientIds: undefined,
      from_date: undefined,
      to_date: undefined,
    });
  });

  it('sends the patients comma-separated and the created days as they are', () => {
    expect(
      probeListParams({
        patientIds: ['7', '12'],
        range: { from_date: '2026-03-01', to_date: '2026-03-02' },
      }),
    ).toEqual({ patientIds: '7,12', from_date: '2026-03-01', to_date: '2026-03-02' });
  });
});
