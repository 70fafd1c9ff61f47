import { describe, expect, it } from 'vitest';
import { probeSetBody } from '@portal/shared';
import { initialOrder } from './probe-set-order-form';

describe('initialOrder', () => {
  it('starts at one kit and one label, to the patient address with the flat number', () => {
    const values = initialOrder({
      address_street: 'ul. Łąkowa',
      address_building: '3',
      address_apartment: '12',
      address_postcode: '90-001',
      address_city: 'Łódź',
    });
    expect(values).toEqual({
      amount: 1,
      labels_amount: 1,
      street: 'ul. Łąkowa',
      building: '3/12',
      postcode: '90-001',
      city: 'Łódź',
    });
    expect(probeSetBody.safeParse({ patient_id: 4, ...values }).success).toBe(true);
  });

  it('leaves a missing address empty, which the schema then reports', () => {
    const values = initialOrder({
      address_street: null,
      address_building: null,
      address_apartment: null,
      address_postcode: null,
      address_city: null,
    });
    expect(values.building).toBe('');
    const result = probeSetBody.safeParse({ patient_id: 4, ...values });
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'building',
      'city',
      'postcode',
      'street',
    ]);
  });
});
