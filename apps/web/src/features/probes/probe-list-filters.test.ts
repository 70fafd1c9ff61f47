import { describe, expect, it } from 'vitest';
import { probeFiltersFromUrl, probeListParams } from './probe-list-filters';

describe('probeFiltersFromUrl', () => {
  it('reads the dashboard’s filters and ignores what is not one', () => {
    expect(
      probeFiltersFromUrl(new URLSearchParams('status=sent&out_of_norm=medicine_7&unit_id=3')),
    ).toEqual({ status: 'sent', outOfNorm: 'medicine_7', unitId: '3' });
    expect(
      probeFiltersFromUrl(new URLSearchParams('status=lost&out_of_norm=sodium&unit_id=x')),
    ).toEqual({ status: null, outOfNorm: null, unitId: null });
  });

  it('sends them to the list', () => {
    expect(
      probeListParams({ patientIds: [], range: {}, status: 'sent', outOfNorm: 'alt', unitId: '3' }),
    ).toMatchObject({ status: 'sent', out_of_norm: 'alt', unit_id: '3' });
  });
});

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
