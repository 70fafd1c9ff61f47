import type { Medicine, PatientDetail, Subgroup } from '@portal/shared';
import { numberFromInput } from '../../../lib/form-number';

/**
 * The state rules of the registration and edit wizards (docs/product-rules.md "Patient wizard"),
 * free of React so that they can be unit-tested. Each section is kept separately and can be reset
 * on its own; the form values stay as typed (strings, '' for an empty number) and become a request
 * body only on submit, where the shared schema validates them.
 */

export type WizardMode = 'create' | 'edit';

export const STEPS = ['personal', 'inclusion', 'medicines', 'qualification'] as const;
export type StepName = (typeof STEPS)[number];
export const LAST_STEP = STEPS.length - 1;

export interface PersonalValues {
  firstname: string;
  surname: string;
  pesel: string;
  address_street: string;
  address_building: string;
  address_apartment: string;
  address_postcode: string;
  address_city: string;
  /** The 9 national digits; '+48' is a fixed prefix of the input. */
  phone_number: string;
  email: string;
  /** kg; '' while empty */
  weight: number | string;
  /** cm; '' while empty */
  height: number | string;
  project_number: string;
  unit_id: number | null;
  doctor_id: number | null;
  /** Consent, asked on registration only. */
  acceptance: boolean;
  /** Finished participation, edited on the edit wizard only. */
  is_finished: boolean;
}

export interface InclusionValues {
  group_id: number | null;
  subgroup_id: number | null;
  /** mg */
  dose: number | null;
  interval: string;
}

export interface MedicineValue {
  medicine_id: number;
  /** mg; null = no dose chosen yet */
  dose: number | null;
}

export interface OtherMedicineValue {
  /** Stable React key of the row; never sent. */
  key: number;
  name: string;
  /** mg; '' while empty */
  dose: number | string;
}

export interface ExclusionValues {
  is_above_18: boolean;
  exclusion_criteria_id: number | null;
  is_classified: boolean;
}

export interface WizardState {
  mode: WizardMode;
  step: number;
  personal: PersonalValues;
  inclusion: InclusionValues;
  medicines: MedicineValue[];
  additional_medicines: OtherMedicineValue[];
  exclusion: ExclusionValues;
  /** Messages under the fields, keyed by the API's dotted paths ('personal.pesel'). */
  errors: Record<string, string>;
  nextKey: number;
  /** Edit only: the record's version this form was loaded at (a stale one answers 409). */
  version?: number;
}

export type Section = 'personal' | 'inclusion' | 'medicines' | 'additional_medicines' | 'exclusion';

/** What the reducer needs to know of a subgroup (GET /inclusion_criteria_group). */
export type SubgroupRef = Pick<Subgroup, 'id' | 'group_id' | 'doses'>;

/** What the reducer needs to know of a medicine (GET /medicine). */
export type MedicineRef = Pick<Medicine, 'id' | 'doses'>;

export type WizardAction =
  | { type: 'goTo'; step: number }
  | {
      type: 'setPersonal';
      field: keyof PersonalValues;
      value: PersonalValues[keyof PersonalValues];
    }
  | { type: 'selectGroup'; groupId: number }
  | { type: 'selectSubgroup'; subgroup: SubgroupRef }
  | { type: 'setDose'; dose: number | null }
  | { type: 'setInterval'; interval: string }
  | { type: 'toggleMedicine'; medicine: MedicineRef }
  | { type: 'setMedicineDose'; medicineId: number; dose: number | null }
  | { type: 'addOther' }
  | { type: 'setOther'; key: number; name?: string; dose?: number | string }
  | { type: 'removeOther'; key: number }
  | { type: 'setAbove18'; value: boolean }
  | { type: 'toggleExclusion'; id: number }
  | { type: 'setClassified'; value: boolean }
  | { type: 'setErrors'; errors: Record<string, string>; goToFirst?: boolean }
  | { type: 'resetSection'; section: Section }
  | { type: 'load'; state: WizardState }
  /** After a 409 conflict: the record was reloaded; the typed values stay. */
  | { type: 'setVersion'; version: number };

export function emptyPersonal(): PersonalValues {
  return {
    firstname: '',
    surname: '',
    pesel: '',
    address_street: '',
    address_building: '',
    address_apartment: '',
    address_postcode: '',
    address_city: '',
    phone_number: '',
    email: '',
    weight: '',
    height: '',
    project_number: '',
    unit_id: null,
    doctor_id: null,
    acceptance: false,
    is_finished: false,
  };
}

export const emptyInclusion = (): InclusionValues => ({
  group_id: null,
  subgroup_id: null,
  dose: null,
  interval: '',
});

export const emptyExclusion = (): ExclusionValues => ({
  is_above_18: true,
  exclusion_criteria_id: null,
  is_classified: false,
});

/**
 * A new registration. A doctor registers patients of the own unit, so the unit (and the doctor
 * him- or herself) are filled in.
 */
export function initialCreateState(
  defaults: { unit_id?: number | null; doctor_id?: number | null } = {},
): WizardState {
  return {
    mode: 'create',
    step: 0,
    personal: {
      ...emptyPersonal(),
      unit_id: defaults.unit_id ?? null,
      doctor_id: defaults.doctor_id ?? null,
    },
    inclusion: emptyInclusion(),
    medicines: [],
    additional_medicines: [],
    exclusion: emptyExclusion(),
    errors: {},
    nextKey: 1,
  };
}

/** The edit wizard starts from GET /patients/{id}. */
export function stateFromDetail(detail: PatientDetail): WizardState {
  const others = detail.additional_medicines.map((item, index) => ({
    key: index + 1,
    name: item.name,
    dose: item.dose,
  }));
  return {
    mode: 'edit',
    step: 0,
    personal: {
      firstname: detail.firstname,
      surname: detail.surname,
      pesel: detail.pesel,
      address_street: detail.address_street ?? '',
      address_building: detail.address_building ?? '',
      address_apartment: detail.address_apartment ?? '',
      address_postcode: detail.address_postcode ?? '',
      address_city: detail.address_city ?? '',
      phone_number: detail.phone_number,
      email: detail.email ?? '',
      weight: detail.weight ?? '',
      height: detail.height ?? '',
      project_number: detail.project_number ?? '',
      unit_id: detail.unit_id,
      doctor_id: detail.doctor_id,
      acceptance: detail.acceptance,
      is_finished: detail.is_finished === 1,
    },
    inclusion: detail.inclusion
      ? {
          group_id: detail.inclusion.group_id,
          subgroup_id: detail.inclusion.subgroup_id,
          dose: detail.inclusion.dose,
          interval: detail.inclusion.interval ?? '',
        }
      : emptyInclusion(),
    medicines: detail.medicines.map((m) => ({ medicine_id: m.medicine_id, dose: m.dose })),
    additional_medicines: others,
    exclusion: {
      is_above_18: detail.is_above_18,
      exclusion_criteria_id: detail.exclusion_criteria_id,
      is_classified: detail.is_classified,
    },
    errors: {},
    nextKey: others.length + 1,
    version: detail.version,
  };
}

/** Which step shows the field behind an error key ('personal.pesel', 'medicines', …). */
export function stepOfField(key: string): number {
  const section = key.split('.')[0];
  if (section === 'inclusion') return 1;
  if (section === 'medicines' || section === 'additional_medicines') return 2;
  if (section === 'exclusion') return 3;
  return 0;
}

/** The first step holding an error, or null when there is none. */
export function firstErrorStep(errors: Record<string, string>): number | null {
  const steps = Object.keys(errors).map(stepOfField);
  return steps.length ? Math.min(...steps) : null;
}

function withoutErrors(errors: Record<string, string>, prefix: string): Record<string, string> {
  const keys = Object.keys(errors).filter((key) => key === prefix || key.startsWith(`${prefix}.`));
  if (!keys.length) return errors;
  const next = { ...errors };
  for (const key of keys) delete next[key];
  return next;
}

/** Dose options of a subgroup: a fixed-dose combination has one tablet dose, its first. */
export function doseOptions(subgroup: { doses: number[]; is_fixed_dose: 0 | 1 }): number[] {
  return subgroup.is_fixed_dose ? subgroup.doses.slice(0, 1) : subgroup.doses;
}

/** Under 18 or meeting an exclusion criterion: "qualified" cannot be chosen. */
export function canQualify(exclusion: ExclusionValues): boolean {
  return exclusion.is_above_18 && exclusion.exclusion_criteria_id === null;
}

/**
 * Registration needs a subgroup, editing a group (docs/product-rules.md "Validation", inclusion
 * step).
 */
export function inclusionMissing(state: Pick<WizardState, 'mode' | 'inclusion'>): boolean {
  return state.mode === 'create' ? !state.inclusion.subgroup_id : !state.inclusion.group_id;
}

function resetSection(state: WizardState, section: Section): WizardState {
  const errors = withoutErrors(state.errors, section);
  switch (section) {
    case 'personal':
      return {
        ...state,
        errors,
        personal: {
          ...emptyPersonal(),
          // The unit and doctor a doctor user starts with stay: they are not typed data.
          ...(state.mode === 'create'
            ? { unit_id: state.personal.unit_id, doctor_id: state.personal.doctor_id }
            : {}),
        },
      };
    case 'inclusion':
      return { ...state, errors, inclusion: emptyInclusion() };
    case 'medicines':
      return { ...state, errors, medicines: [] };
    case 'additional_medicines':
      return { ...state, errors, additional_medicines: [] };
    case 'exclusion':
      return { ...state, errors, exclusion: emptyExclusion() };
  }
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'goTo':
      return { ...state, step: Math.min(Math.max(action.step, 0), LAST_STEP) };

    case 'setPersonal': {
      const personal = { ...state.personal, [action.field]: action.value };
      let errors = withoutErrors(state.errors, `personal.${action.field}`);
      // Another unit has other doctors.
      if (action.field === 'unit_id' && action.value !== state.personal.unit_id) {
        personal.doctor_id = null;
        errors = withoutErrors(errors, 'personal.doctor_id');
      }
      return { ...state, personal, errors };
    }

    case 'selectGroup': {
      const errors = withoutErrors(state.errors, 'inclusion');
      // The same group again deselects it and clears everything.
      if (state.inclusion.group_id === action.groupId) {
        return { ...state, errors, inclusion: emptyInclusion() };
      }
      return { ...state, errors, inclusion: { ...emptyInclusion(), group_id: action.groupId } };
    }

    case 'selectSubgroup': {
      const errors = withoutErrors(state.errors, 'inclusion');
      const { subgroup } = action;
      // The same subgroup again deselects it and clears the dose; the group stays chosen.
      if (state.inclusion.subgroup_id === subgroup.id) {
        return {
          ...state,
          errors,
          inclusion: { ...state.inclusion, subgroup_id: null, dose: null },
        };
      }
      return {
        ...state,
        errors,
        inclusion: {
          group_id: subgroup.group_id,
          subgroup_id: subgroup.id,
          dose: subgroup.doses[0] ?? null,
          interval: '',
        },
      };
    }

    case 'setDose':
      return {
        ...state,
        errors: withoutErrors(state.errors, 'inclusion.dose'),
        inclusion: { ...state.inclusion, dose: action.dose },
      };

    case 'setInterval':
      return {
        ...state,
        errors: withoutErrors(state.errors, 'inclusion.interval'),
        inclusion: { ...state.inclusion, interval: action.interval },
      };

    case 'toggleMedicine': {
      const errors = withoutErrors(state.errors, 'medicines');
      const { medicine } = action;
      if (state.medicines.some((m) => m.medicine_id === medicine.id)) {
        return {
          ...state,
          errors,
          medicines: state.medicines.filter((m) => m.medicine_id !== medicine.id),
        };
      }
      // No dose at registration; editing starts from the first listed dose.
      const dose = state.mode === 'edit' ? (medicine.doses[0] ?? null) : null;
      return {
        ...state,
        errors,
        medicines: [...state.medicines, { medicine_id: medicine.id, dose }],
      };
    }

    case 'setMedicineDose':
      return {
        ...state,
        errors: withoutErrors(state.errors, 'medicines'),
        medicines: state.medicines.map((m) =>
          m.medicine_id === action.medicineId ? { ...m, dose: action.dose } : m,
        ),
      };

    case 'addOther':
      return {
        ...state,
        additional_medicines: [
          ...state.additional_medicines,
          { key: state.nextKey, name: '', dose: 0 },
        ],
        nextKey: state.nextKey + 1,
      };

    case 'setOther': {
      const index = state.additional_medicines.findIndex((o) => o.key === action.key);
      if (index < 0) return state;
      const current = state.additional_medicines[index]!;
      const next = {
        ...current,
        ...(action.name === undefined ? {} : { name: action.name }),
        ...(action.dose === undefined ? {} : { dose: action.dose }),
      };
      const field = action.name === undefined ? 'dose' : 'name';
      return {
        ...state,
        errors: withoutErrors(state.errors, `additional_medicines.${index}.${field}`),
        additional_medicines: state.additional_medicines.map((o, i) => (i === index ? next : o)),
      };
    }

    case 'removeOther':
      return {
        ...state,
        // Row indices shift, so index-keyed messages would land on the wrong row.
        errors: withoutErrors(state.errors, 'additional_medicines'),
        additional_medicines: state.additional_medicines.filter((o) => o.key !== action.key),
      };

    case 'setAbove18':
      return {
        ...state,
        errors: withoutErrors(state.errors, 'exclusion'),
        exclusion: {
          ...state.exclusion,
          is_above_18: action.value,
          // Under 18 forces "not qualified".
          is_classified: action.value ? state.exclusion.is_classified : false,
        },
      };

    case 'toggleExclusion': {
      const errors = withoutErrors(state.errors, 'exclusion');
      if (state.exclusion.exclusion_criteria_id === action.id) {
        return { ...state, errors, exclusion: { ...state.exclusion, exclusion_criteria_id: null } };
      }
      return {
        ...state,
        errors,
        exclusion: { ...state.exclusion, exclusion_criteria_id: action.id, is_classified: false },
      };
    }

    case 'setClassified':
      if (action.value && !canQualify(state.exclusion)) return state;
      return {
        ...state,
        errors: withoutErrors(state.errors, 'exclusion'),
        exclusion: { ...state.exclusion, is_classified: action.value },
      };

    case 'setErrors': {
      const first = action.goToFirst ? firstErrorStep(action.errors) : null;
      return { ...state, errors: action.errors, step: first ?? state.step };
    }

    case 'resetSection':
      return resetSection(state, action.section);

    case 'load':
      return action.state;
    case 'setVersion':
      return { ...state, version: action.version };
  }
}

/**
 * The request body as typed, before the shared schema (`patientCreateBody` or
 * `patientUpdateBody`) validates and normalises it; the schema's output is what is sent.
 */
export interface RawPatientBody {
  personal: Record<string, unknown>;
  exclusion: ExclusionValues;
  inclusion: InclusionValues;
  medicines: MedicineValue[];
  additional_medicines: { name: string; dose: number | string }[];
  version?: number;
}

function personalBody(personal: PersonalValues): Record<string, unknown> {
  return {
    firstname: personal.firstname,
    surname: personal.surname,
    pesel: personal.pesel,
    address_street: personal.address_street,
    address_building: personal.address_building,
    address_apartment: personal.address_apartment,
    address_postcode: personal.address_postcode,
    address_city: personal.address_city,
    phone_number: personal.phone_number,
    email: personal.email,
    // JSON numbers: an emptied input is null, never '' or "80" (ADR 037).
    weight: numberFromInput(personal.weight),
    height: numberFromInput(personal.height),
    project_number: personal.project_number,
    doctor_id: personal.doctor_id,
    unit_id: personal.unit_id,
  };
}

function sectionsBody(state: WizardState): Omit<RawPatientBody, 'personal'> {
  return {
    exclusion: { ...state.exclusion },
    inclusion: { ...state.inclusion },
    medicines: state.medicines.map((m) => ({ medicine_id: m.medicine_id, dose: m.dose })),
    // An empty dose stays '': the schema answers 'invalid_number' under the field.
    additional_medicines: state.additional_medicines.map(({ name, dose }) => ({ name, dose })),
  };
}

/** POST /api/patients as typed. */
export function toCreateBody(state: WizardState): RawPatientBody {
  return {
    personal: { ...personalBody(state.personal), acceptance: state.personal.acceptance },
    ...sectionsBody(state),
  };
}

/** PUT /api/patients/{id} as typed: no consent, but the finished-participation flag. */
export function toUpdateBody(state: WizardState): RawPatientBody {
  return {
    personal: { ...personalBody(state.personal), is_finished: state.personal.is_finished },
    ...sectionsBody(state),
    version: state.version,
  };
}
