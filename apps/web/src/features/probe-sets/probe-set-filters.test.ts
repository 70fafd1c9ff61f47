import { describe, expect, it } from 'vitest';
import { NO_PROBE_SET_FILTERS, probeSetListParams } from './probe-set-filters';

describe('probeSetListParams', () => {
  it('sends nothing without filters', () => {
    expect(probeSetListParams(NO_PROBE_SET_FILTERS)).toEqual({
      patientIds: undefined,
      from_date: undefined,
      to_date: undefined,
      status: undefined,
    });
  });

  it('joins the patients and keeps status 0 (a falsy value)', () => {
    expect(
      probeSetListParams({
        patientIds: ['3', '7'],
        range: { from_date: '2026-11-01', to_date: '2026-11-24' },
        status: 0,
      }),
    ).toEqual({ patientIds: '3,7', from_date: '2026-11-01', to_date: '2026-11-24', status: 0 });
  });
});
