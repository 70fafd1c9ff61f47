import { describe, expect, it } from 'vitest';
import { probeBody } from '@portal/shared';
import { initialProbeForm, parseTypedDay, probeBodyFrom } from './probe-form';

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
  it('fills the defaults of the spec, the patient and the signed-in orderer', () => {
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

describe('parseTypedDay', () => {
  it('reads DD.MM.YYYY and refuses impossible days', () => {
    expect(parseTypedDay('05.03.2026')).toBe('2026-03-05');
    expect(parseTypedDay('5.3.2026')).toBe('2026-03-05');
    expect(parseTypedDay('31.02.2026')).toBeNull();
    expect(parseTypedDay('2026-03-05')).toBeNull();
  });
});
