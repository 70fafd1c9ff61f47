import { describe, expect, it } from 'vitest';
import { probeBody } from '@portal/shared';
import { acceptedKits, initialProbeForm, parseTypedDay, probeBodyFrom } from './probe-form';

const patient = {
  firstname: 'Anna',
  surname: 'Nowak',
  address_street: 'Długa',
  address_building: '5',
  address_postcode: '00-001',
  address_city: 'Warszawa',
  medicines: [
    { medicine_id: 3, name: 'Amlodypina', dose: 5 },
    { medicine_id: 7, name: 'Bisoprolol', dose: null },
  ],
};

describe('initialProbeForm', () => {
  it('fills the fixed defaults, the patient and the signed-in orderer', () => {
    const values = initialProbeForm(patient, { firstname: 'Jan', surname: 'Lekarz' }, '2026-11-24');
    expect(values).toMatchObject({
      medicine_ids: ['3', '7'],
      date_of_sample: '2026-11-24',
      ordered_at: '2026-11-24',
      ordered_by_firstname: 'Jan',
      ordered_by_surname: 'Lekarz',
      patient_firstname: 'Anna',
      patient_address_city: 'Warszawa',
      is_cito: true,
      type_of_test: 'biochemistry',
      type_of_material: 'venous',
      collect_place: 'clinic',
      carrier_id: null,
      visit_id: null,
    });
  });

  it('leaves the orderer empty when the user has no name (an administrator)', () => {
    const values = initialProbeForm(patient, { firstname: null, surname: null }, '2026-11-24');
    expect(values.ordered_by_firstname).toBe('');
    expect(values.ordered_by_surname).toBe('');
  });
});

describe('probeBodyFrom', () => {
  it('builds a body the shared schema accepts once a carrier is chosen', () => {
    const values = { ...initialProbeForm(patient, null, '2026-11-24'), carrier_id: '2' };
    values.ordered_by_firstname = 'Jan';
    values.ordered_by_surname = 'Lekarz';
    const body = probeBodyFrom(12, { ...values, visit_id: '40' });
    expect(probeBody.parse(body)).toMatchObject({
      patient_id: 12,
      visit_id: 40,
      carrier_id: 2,
      medicine_ids: [3, 7],
    });
  });

  it('leaves out what is missing, so the schema names the fields', () => {
    const values = { ...initialProbeForm(patient, null, '2026-11-24'), date_of_sample: null };
    const result = probeBody.safeParse(probeBodyFrom(12, { ...values, medicine_ids: [] }));
    expect(result.success).toBe(false);
    const fields = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(fields).toEqual(
      expect.arrayContaining([
        'medicine_ids',
        'date_of_sample',
        'carrier_id',
        'ordered_by_firstname',
      ]),
    );
  });
});

describe('kits of home samples', () => {
  const base = { ...initialProbeForm(patient, null, '2026-11-24'), probe_set_kit_id: '9' };

  it('sends the chosen kit only with a home sample', () => {
    expect(probeBodyFrom(12, { ...base, collect_place: 'home' })).toMatchObject({
      probe_set_kit_id: 9,
    });
    expect(probeBodyFrom(12, { ...base, collect_place: 'clinic' })).not.toHaveProperty(
      'probe_set_kit_id',
    );
    expect(
      probeBodyFrom(12, { ...base, collect_place: 'home', probe_set_kit_id: null }),
    ).not.toHaveProperty('probe_set_kit_id');
  });

  it('offers the kits of accepted orders only, newest order first', () => {
    const kit = (id: number, kit_number: number) => ({ id, kit_number }) as never;
    expect(
      acceptedKits([
        { id: 3, status: 1, sets: [kit(31, 2), kit(30, 1)] },
        { id: 5, status: 0, sets: [kit(50, 1)] },
        { id: 7, status: 1, sets: [kit(70, 1)] },
        { id: 8, status: 2, sets: [kit(80, 1)] },
      ]),
    ).toEqual([
      { kitId: 70, kitNumber: 1, orderId: 7 },
      { kitId: 30, kitNumber: 1, orderId: 3 },
      { kitId: 31, kitNumber: 2, orderId: 3 },
    ]);
  });
});

describe('parseTypedDay', () => {
  it('reads DD.MM.YYYY and refuses impossible days', () => {
    expect(parseTypedDay('05.03.2026')).toBe('2026-03-05');
    expect(parseTypedDay('5.3.2026')).toBe('2026-03-05');
    expect(parseTypedDay('31.02.2026')).toBeNull();
    expect(parseTypedDay('2026-03-05')).toBeNull();
  });
});
