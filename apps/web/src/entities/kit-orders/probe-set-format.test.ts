import { describe, expect, it } from 'vitest';
import { probeSetAddress, shipmentStatusText } from './probe-set-format';

describe('probe set format', () => {
  it('writes the address on one line', () => {
    expect(
      probeSetAddress({
        street: 'ul. Długa',
        building: '5/2',
        postcode: '00-001',
        city: 'Warszawa',
      }),
    ).toBe('ul. Długa 5/2, 00-001 Warszawa');
    expect(probeSetAddress({ street: '', building: '', postcode: '00-001', city: 'Łódź' })).toBe(
      '00-001 Łódź',
    );
  });

  it('shows the last status with its Warsaw date, or "-"', () => {
    expect(shipmentStatusText(null)).toBe('-');
    expect(
      shipmentStatusText({ last_status: null, last_status_date: '2026-11-20T10:00:00.000Z' }),
    ).toBe('-');
    expect(
      shipmentStatusText({
        last_status: 'Doręczono',
        last_status_date: '2026-11-20T10:05:00.000Z',
      }),
    ).toBe('Doręczono (20.11.2026 11:05)');
    expect(shipmentStatusText({ last_status: 'W drodze', last_status_date: null })).toBe(
      'W drodze',
    );
  });
});
