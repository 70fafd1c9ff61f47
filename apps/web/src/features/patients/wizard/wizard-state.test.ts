import { describe, expect, it } from 'vitest';
import { buildPesel, patientCreateBody, patientUpdateBody } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { validateWith } from '../../../lib/form-validation';
import {
  canQualify,
  doseOptions,
  firstErrorStep,
  inclusionMissing,
  initialCreateState,
  stateFromDetail,
  stepOfField,
  toCreateBody,
  toUpdateBody,
  wizardReducer,
} from './wizard-state';
import type { WizardAction, WizardState } from './wizard-state';

const subgroup1A = { id: 1, group_id: 1, doses: [5, 10] };
const subgroup1B = { id: 2, group_id: 1, doses: [80, 160, 320] };
const subgroup2A = { id: 4, group_id: 2, doses: [25] };
const amlodipine = { id: 3, doses: [5, 10] };
const ramipril = { id: 7, doses: [2.5, 5, 10] };

function run(state: WizardState, ...actions: WizardAction[]): WizardState {
  return actions.reduce(wizardReducer, state);
}

const created = () => initialCreateState();

function detail(overrides: Partial<PatientDetail> = {}): PatientDetail {
  return {
    id: 42,
    user_id: 7,
    login: 'pac000042',
    firstname: 'Zofia',
    surname: 'Wójcik',
    pesel: buildPesel({ year: 1960, month: 3, day: 15 }, 10, 'K'),
    sex: 'K',
    birth_date: '1960-03-15',
    address_street: 'Łąkowa',
    address_building: '3',
    address_apartment: null,
    address_postcode: '90-001',
    address_city: 'Łódź',
    phone_number: '501234567',
    email: null,
    weight: 72.5,
    height: null,
    project_number: 'FDC-2026',
    is_above_18: true,
    is_classified: true,
    is_finished: 0,
    acceptance: true,
    exclusion_criteria_id: null,
    doctor_id: 3,
    unit_id: 2,
    doctor: { id: 3, firstname: 'Jan', surname: 'Nowak' },
    unit: { id: 2, name: 'Poradnia' },
    inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
    medicines: [{ medicine_id: 3, name: 'amlodypina', dose: 5 }],
    additional_medicines: [{ id: 9, name: 'Metformina', dose: 500 }],
    probes_count: 0,
    past_visit_date: null,
    next_visit_date: null,
    created_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    version: 1,
    abilities: { edit: true, delete: true, restore: false, book: true, verify: false },
    ...overrides,
  };
}

describe('steps', () => {
  it('jumps to any of the four steps and stays within them', () => {
    expect(run(created(), { type: 'goTo', step: 3 }).step).toBe(3);
    expect(run(created(), { type: 'goTo', step: 9 }).step).toBe(3);
    expect(run(created(), { type: 'goTo', step: -1 }).step).toBe(0);
  });

  it('keeps every section when moving between steps', () => {
    const state = run(
      created(),
      { type: 'setPersonal', field: 'firstname', value: 'Zofia' },
      { type: 'goTo', step: 1 },
      { type: 'selectSubgroup', subgroup: subgroup1B },
      { type: 'goTo', step: 2 },
      { type: 'toggleMedicine', medicine: amlodipine },
      { type: 'goTo', step: 0 },
    );
    expect(state.personal.firstname).toBe('Zofia');
    expect(state.inclusion.subgroup_id).toBe(2);
    expect(state.medicines).toEqual([{ medicine_id: 3, dose: null }]);
  });

  it('maps error keys to the step that shows the field', () => {
    expect(stepOfField('personal.pesel')).toBe(0);
    expect(stepOfField('inclusion.dose')).toBe(1);
    expect(stepOfField('medicines')).toBe(2);
    expect(stepOfField('additional_medicines.0.name')).toBe(2);
    expect(stepOfField('exclusion.is_classified')).toBe(3);
    expect(firstErrorStep({ 'exclusion.is_classified': 'x', 'inclusion.dose': 'y' })).toBe(1);
    expect(firstErrorStep({})).toBeNull();
  });

  it('jumps to the first step with errors when asked to', () => {
    const state = run(
      created(),
      { type: 'goTo', step: 3 },
      { type: 'setErrors', errors: { medicines: 'a', 'exclusion.x': 'b' }, goToFirst: true },
    );
    expect(state.step).toBe(2);
    expect(state.errors).toEqual({ medicines: 'a', 'exclusion.x': 'b' });
  });
});

describe('personal data', () => {
  it('clears the error of a field when it changes', () => {
    const state = run(
      created(),
      { type: 'setErrors', errors: { 'personal.pesel': 'taken', 'personal.surname': 'req' } },
      { type: 'setPersonal', field: 'pesel', value: '1' },
    );
    expect(state.errors).toEqual({ 'personal.surname': 'req' });
  });

  it('forgets the doctor when another unit is chosen', () => {
    const state = run(initialCreateState({ unit_id: 1, doctor_id: 5 }), {
      type: 'setPersonal',
      field: 'unit_id',
      value: 1,
    });
    expect(state.personal.doctor_id).toBe(5);
    const other = run(state, { type: 'setPersonal', field: 'unit_id', value: 2 });
    expect(other.personal).toMatchObject({ unit_id: 2, doctor_id: null });
  });

  it("starts a doctor's registration in the own unit", () => {
    expect(initialCreateState({ unit_id: 4, doctor_id: 9 }).personal).toMatchObject({
      unit_id: 4,
      doctor_id: 9,
      acceptance: false,
    });
  });
});

describe('inclusion', () => {
  it('selecting a group clears subgroup, dose and interval', () => {
    const state = run(
      created(),
      { type: 'selectSubgroup', subgroup: subgroup1B },
      { type: 'setInterval', interval: 'co 2 dni' },
      { type: 'selectGroup', groupId: 2 },
    );
    expect(state.inclusion).toEqual({ group_id: 2, subgroup_id: null, dose: null, interval: '' });
  });

  it('selecting the same group again deselects and clears everything', () => {
    const state = run(
      created(),
      { type: 'selectSubgroup', subgroup: subgroup1A },
      { type: 'selectGroup', groupId: 1 },
    );
    expect(state.inclusion).toEqual({
      group_id: null,
      subgroup_id: null,
      dose: null,
      interval: '',
    });
  });

  it('selecting a subgroup sets its first dose and its group, and clears the interval', () => {
    const state = run(
      created(),
      { type: 'selectSubgroup', subgroup: subgroup2A },
      { type: 'setInterval', interval: 'co 2 dni' },
      { type: 'selectSubgroup', subgroup: subgroup1B },
    );
    expect(state.inclusion).toEqual({ group_id: 1, subgroup_id: 2, dose: 80, interval: '' });
  });

  it('selecting the same subgroup again deselects it and clears the dose', () => {
    const state = run(
      created(),
      { type: 'selectSubgroup', subgroup: subgroup1B },
      { type: 'setDose', dose: 320 },
      { type: 'selectSubgroup', subgroup: subgroup1B },
    );
    expect(state.inclusion).toMatchObject({ group_id: 1, subgroup_id: null, dose: null });
  });

  it('offers one tablet dose for a fixed-dose subgroup, all doses otherwise', () => {
    expect(doseOptions({ doses: [5, 10], is_fixed_dose: 1 })).toEqual([5]);
    expect(doseOptions({ doses: [80, 160], is_fixed_dose: 0 })).toEqual([80, 160]);
  });

  it('registration requires a subgroup, editing a group', () => {
    const withGroup = run(created(), { type: 'selectGroup', groupId: 1 });
    expect(inclusionMissing(withGroup)).toBe(true);
    expect(inclusionMissing({ ...withGroup, mode: 'edit' })).toBe(false);
    expect(inclusionMissing(run(created(), { type: 'selectSubgroup', subgroup: subgroup1A }))).toBe(
      false,
    );
    expect(inclusionMissing({ ...created(), mode: 'edit' })).toBe(true);
  });
});

describe('medicines', () => {
  it('ticking adds a medicine without a dose at registration; unticking removes it', () => {
    const ticked = run(created(), { type: 'toggleMedicine', medicine: amlodipine });
    expect(ticked.medicines).toEqual([{ medicine_id: 3, dose: null }]);
    expect(run(ticked, { type: 'toggleMedicine', medicine: amlodipine }).medicines).toEqual([]);
  });

  it('ticking adds the first dose when editing', () => {
    const state = run(stateFromDetail(detail({ medicines: [] })), {
      type: 'toggleMedicine',
      medicine: ramipril,
    });
    expect(state.medicines).toEqual([{ medicine_id: 7, dose: 2.5 }]);
  });

  it('sets a listed or a custom dose', () => {
    const state = run(
      created(),
      { type: 'toggleMedicine', medicine: amlodipine },
      { type: 'toggleMedicine', medicine: ramipril },
      { type: 'setMedicineDose', medicineId: 3, dose: 10 },
      { type: 'setMedicineDose', medicineId: 7, dose: 7.5 },
    );
    expect(state.medicines).toEqual([
      { medicine_id: 3, dose: 10 },
      { medicine_id: 7, dose: 7.5 },
    ]);
  });

  it('adds other medicines with an empty name and dose 0, edits and removes them', () => {
    let state = run(created(), { type: 'addOther' }, { type: 'addOther' });
    expect(state.additional_medicines).toEqual([
      { key: 1, name: '', dose: 0 },
      { key: 2, name: '', dose: 0 },
    ]);
    state = run(
      state,
      { type: 'setOther', key: 2, name: 'Metformina' },
      { type: 'setOther', key: 2, dose: 500 },
      { type: 'removeOther', key: 1 },
    );
    expect(state.additional_medicines).toEqual([{ key: 2, name: 'Metformina', dose: 500 }]);
    // Keys are never reused, so React keeps the right inputs.
    expect(run(state, { type: 'addOther' }).additional_medicines.map((o) => o.key)).toEqual([2, 3]);
  });
});

describe('qualification', () => {
  it('under 18 forces not qualified and keeps "qualified" unavailable', () => {
    const state = run(
      created(),
      { type: 'setClassified', value: true },
      { type: 'setAbove18', value: false },
    );
    expect(state.exclusion).toMatchObject({ is_above_18: false, is_classified: false });
    expect(canQualify(state.exclusion)).toBe(false);
    expect(run(state, { type: 'setClassified', value: true }).exclusion.is_classified).toBe(false);
  });

  it('one exclusion criterion: choosing one sets not qualified, clicking it again clears it', () => {
    let state = run(
      created(),
      { type: 'setClassified', value: true },
      { type: 'toggleExclusion', id: 3 },
    );
    expect(state.exclusion).toMatchObject({ exclusion_criteria_id: 3, is_classified: false });
    state = run(state, { type: 'toggleExclusion', id: 5 });
    expect(state.exclusion.exclusion_criteria_id).toBe(5);
    state = run(state, { type: 'toggleExclusion', id: 5 });
    expect(state.exclusion.exclusion_criteria_id).toBeNull();
    expect(run(state, { type: 'setClassified', value: true }).exclusion.is_classified).toBe(true);
  });

  it('not qualified can always be chosen', () => {
    const state = run(
      created(),
      { type: 'setClassified', value: true },
      { type: 'setClassified', value: false },
    );
    expect(state.exclusion.is_classified).toBe(false);
  });
});

describe('sections', () => {
  it('resets one section and leaves the others', () => {
    const filled = run(
      created(),
      { type: 'setPersonal', field: 'firstname', value: 'Zofia' },
      { type: 'selectSubgroup', subgroup: subgroup1A },
      { type: 'toggleMedicine', medicine: amlodipine },
      { type: 'addOther' },
      { type: 'toggleExclusion', id: 2 },
    );
    const state = run(filled, { type: 'resetSection', section: 'inclusion' });
    expect(state.inclusion.subgroup_id).toBeNull();
    expect(state.personal.firstname).toBe('Zofia');
    expect(state.medicines).toHaveLength(1);
    expect(run(state, { type: 'resetSection', section: 'medicines' }).medicines).toEqual([]);
    expect(
      run(state, { type: 'resetSection', section: 'additional_medicines' }).additional_medicines,
    ).toEqual([]);
    expect(
      run(state, { type: 'resetSection', section: 'exclusion' }).exclusion.exclusion_criteria_id,
    ).toBeNull();
    expect(run(state, { type: 'resetSection', section: 'personal' }).personal.firstname).toBe('');
  });
});

describe('request bodies', () => {
  function filledRegistration() {
    return run(
      initialCreateState({ unit_id: 2, doctor_id: 3 }),
      { type: 'setPersonal', field: 'firstname', value: 'Zofia' },
      { type: 'setPersonal', field: 'surname', value: 'Wójcik' },
      { type: 'setPersonal', field: 'pesel', value: detail().pesel },
      { type: 'setPersonal', field: 'phone_number', value: '501234567' },
      { type: 'setPersonal', field: 'acceptance', value: true },
      { type: 'selectSubgroup', subgroup: subgroup1B },
      { type: 'toggleMedicine', medicine: amlodipine },
      { type: 'addOther' },
      { type: 'setOther', key: 1, name: 'Metformina' },
      { type: 'setOther', key: 1, dose: 500 },
    );
  }

  it('a complete registration passes the shared schema', () => {
    const result = validateWith(patientCreateBody, toCreateBody(filledRegistration()));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.personal).toMatchObject({
      phone_number: '501234567',
      email: null,
      weight: null,
      unit_id: 2,
      doctor_id: 3,
      acceptance: true,
    });
    expect(result.data.inclusion).toEqual({
      group_id: 1,
      subgroup_id: 2,
      dose: 80,
      interval: null,
    });
    expect(result.data.medicines).toEqual([{ medicine_id: 3, dose: null }]);
    expect(result.data.additional_medicines).toEqual([{ name: 'Metformina', dose: 500 }]);
  });

  it('reports missing data with the API field keys', () => {
    const state = run(created(), { type: 'addOther' }, { type: 'setOther', key: 1, dose: '' });
    const result = validateWith(patientCreateBody, toCreateBody(state));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.codes).toMatchObject({
      'personal.firstname': 'required',
      'personal.pesel': 'required',
      'personal.phone_number': 'required',
      'personal.acceptance': 'acceptance_required',
      'personal.unit_id': 'required',
      'additional_medicines.0.name': 'required',
      'additional_medicines.0.dose': 'invalid_number',
    });
  });

  it('an edit starts from the saved patient and sends the finished flag', () => {
    const state = run(stateFromDetail(detail()), {
      type: 'setPersonal',
      field: 'is_finished',
      value: true,
    });
    expect(state.mode).toBe('edit');
    expect(state.personal).toMatchObject({ address_apartment: '', email: '', height: '' });
    expect(state.additional_medicines).toEqual([{ key: 1, name: 'Metformina', dose: 500 }]);
    const result = validateWith(patientUpdateBody, toUpdateBody(state));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.personal.is_finished).toBe(true);
    expect(result.data.personal).not.toHaveProperty('acceptance');
    expect(result.data.version).toBe(1);
    expect(result.data.inclusion).toEqual({
      group_id: 1,
      subgroup_id: 2,
      dose: 160,
      interval: null,
    });
  });

  it('an edit requires an 11-digit PESEL and a 9-digit phone', () => {
    const state = run(
      stateFromDetail(detail()),
      { type: 'setPersonal', field: 'pesel', value: '1234567890' },
      { type: 'setPersonal', field: 'phone_number', value: '12345678' },
    );
    const result = validateWith(patientUpdateBody, toUpdateBody(state));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.codes).toMatchObject({
      'personal.pesel': 'invalid_pesel',
      'personal.phone_number': 'invalid_phone',
    });
  });
});

describe('a save refused as stale (409 conflict)', () => {
  it('takes the reloaded version and keeps every typed value', () => {
    const typed = run(stateFromDetail(detail()), {
      type: 'setPersonal',
      field: 'surname',
      value: 'Wpisane-Nazwisko',
    });
    const reloaded = run(typed, { type: 'setVersion', version: 5 });
    expect(reloaded).toEqual({ ...typed, version: 5 });
    expect(toUpdateBody(reloaded)).toMatchObject({
      version: 5,
      personal: { surname: 'Wpisane-Nazwisko' },
    });
  });
});
