import { z } from 'zod';
import { monitoringFacts } from './monitoring.js';
import { reasonField } from './records.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';
import { PESEL_LENGTH, isValidPesel } from '../pesel.js';
import {
  idField,
  idListField,
  optionalText,
  phoneField,
  queryIdField,
  requiredId,
  requiredText,
  text,
} from '../validation.js';
import {
  nullableTimestamp,
  pagedResponse,
  recordVersion,
  totalKind,
  versionField,
} from './common.js';

const optionalEmail = () =>
  text({ error: 'invalid_email' })
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
    .pipe(z.email({ error: 'invalid_email' }).nullable());

/** A JSON number or nothing (null): "80" is refused like any wrong type (ADR 037). */
const optionalMeasure = (max: number) =>
  z
    .number({ error: 'invalid_number' })
    .positive({ error: 'invalid_number' })
    .max(max, { error: 'invalid_number' })
    .nullish()
    .transform((v) => v ?? null);

export const peselField = () =>
  requiredText(PESEL_LENGTH).refine(isValidPesel, { error: 'invalid_pesel' });

/** Step 1 of both wizards. `acceptance` is asked on registration only. */
export const patientPersonalFields = {
  firstname: requiredText(),
  surname: requiredText(),
  pesel: peselField(),
  address_street: optionalText(),
  address_building: optionalText(),
  address_apartment: optionalText(),
  address_postcode: optionalText(),
  address_city: optionalText(),
  phone_number: phoneField(),
  email: optionalEmail(),
  /** kg */
  weight: optionalMeasure(500),
  /** cm */
  height: optionalMeasure(300),
  project_number: optionalText(),
  doctor_id: requiredId(),
  unit_id: requiredId(),
};

export const patientPersonalCreate = z.object({
  ...patientPersonalFields,
  acceptance: z.literal(true, { error: 'acceptance_required' }),
});
export const patientPersonalUpdate = z.object({
  ...patientPersonalFields,
  /** Finished participation in the programme; kept when omitted. */
  is_finished: z
    .union([z.boolean(), z.literal(0), z.literal(1)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Boolean(v))),
});

export const patientExclusion = z
  .object({
    is_above_18: z.boolean().default(true),
    exclusion_criteria_id: idField('invalid').nullable().default(null),
    is_classified: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    // Under 18 or meeting an exclusion criterion forces "not qualified".
    if (v.is_classified && (!v.is_above_18 || v.exclusion_criteria_id !== null)) {
      ctx.addIssue({ code: 'custom', path: ['is_classified'], message: 'not_qualifiable' });
    }
  });

const dose = z
  .number({ error: 'invalid_number' })
  .nonnegative({ error: 'invalid_number' })
  .max(100_000);

export const patientInclusion = z.object({
  group_id: idField('select_inclusion').nullable(),
  subgroup_id: idField('invalid').nullable().default(null),
  dose: dose.nullable().default(null),
  interval: text()
    .nullish()
    .transform((v) => v || null),
});

export const patientMedicineInput = z.object({
  medicine_id: idField('invalid'),
  dose: dose.nullable().default(null),
});
export const additionalMedicineInput = z.object({ name: requiredText(), dose });

const patientSections = {
  exclusion: patientExclusion,
  medicines: z.array(patientMedicineInput).max(100).default([]),
  additional_medicines: z.array(additionalMedicineInput).max(100).default([]),
};

/** POST /api/patients: registration requires a subgroup (docs/product-rules.md "Validation"). */
export const patientCreateBody = z
  .object({ personal: patientPersonalCreate, inclusion: patientInclusion, ...patientSections })
  .superRefine((v, ctx) => {
    if (!v.inclusion.subgroup_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['inclusion', 'subgroup_id'],
        message: 'select_inclusion',
      });
    }
  });
/** PUT /api/patients/{id}: editing requires a group. */
export const patientUpdateBody = z
  .object({
    personal: patientPersonalUpdate,
    inclusion: patientInclusion,
    ...patientSections,
    /** The patient's version that the wizard loaded (ADR 018). */
    version: versionField(),
    /** Required once the patient is qualified (ADR 048). */
    ...reasonField,
  })
  .superRefine((v, ctx) => {
    if (!v.inclusion.group_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['inclusion', 'group_id'],
        message: 'select_inclusion',
      });
    }
  });
export type PatientCreateBody = z.input<typeof patientCreateBody>;
export type PatientUpdateBody = z.input<typeof patientUpdateBody>;

export const patientCreated = z.object({
  status: z.literal('success'),
  patient: z.object({
    id: z.number().int(),
    login: z.string(),
    password: z.string(),
    firstname: z.string(),
    surname: z.string(),
    /** Where the patient signs in (PUBLIC_URL), for the credentials sheet. */
    login_url: z.string(),
  }),
});
export type PatientCreated = z.infer<typeof patientCreated>;

const person = z.object({ id: z.number().int(), firstname: z.string(), surname: z.string() });

export const patientInclusionView = z.object({
  group_id: z.number().int().nullable(),
  subgroup_id: z.number().int().nullable(),
  dose: z.number().nullable(),
  interval: z.string().nullable(),
});

export const patientMedicineView = z.object({
  medicine_id: z.number().int(),
  name: z.string(),
  dose: z.number().nullable(),
});
export const additionalMedicineView = z.object({
  id: z.number().int(),
  name: z.string(),
  dose: z.number(),
});

/**
 * What the signed-in user may do with a patient (ADR 045): `edit` the record (the edit wizard,
 * notes, files, messages, a new password), `delete` it, `restore` a deleted one, `book` a visit,
 * `verify` its sections against the source (a monitor, ADR 051). A deleted patient is read-only
 * until restored.
 */
export const patientAbilities = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  restore: z.boolean(),
  book: z.boolean(),
  verify: z.boolean(),
});
export type PatientAbilities = z.infer<typeof patientAbilities>;

/** GET /api/patients/{id}: the Patient, flat, plus derived and related data. */
export const patientDetail = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  login: z.string(),
  firstname: z.string(),
  surname: z.string(),
  pesel: z.string(),
  sex: z.enum(['M', 'K']),
  birth_date: z.string(),
  address_street: z.string().nullable(),
  address_building: z.string().nullable(),
  address_apartment: z.string().nullable(),
  address_postcode: z.string().nullable(),
  address_city: z.string().nullable(),
  phone_number: z.string(),
  email: z.string().nullable(),
  weight: z.number().nullable(),
  height: z.number().nullable(),
  project_number: z.string().nullable(),
  is_above_18: z.boolean(),
  is_classified: z.boolean(),
  is_finished: z.union([z.literal(0), z.literal(1)]),
  acceptance: z.boolean(),
  exclusion_criteria_id: z.number().int().nullable(),
  doctor_id: z.number().int(),
  unit_id: z.number().int(),
  doctor: person,
  unit: z.object({ id: z.number().int(), name: z.string() }),
  inclusion: patientInclusionView.nullable(),
  medicines: z.array(patientMedicineView),
  additional_medicines: z.array(additionalMedicineView),
  probes_count: z.number().int(),
  past_visit_date: z.string().nullable(),
  next_visit_date: z.string().nullable(),
  created_at: z.string(),
  deleted_at: nullableTimestamp,
  version: recordVersion,
  /** The signed-in user's abilities on this patient (ADR 045). */
  abilities: patientAbilities,
  // Verification of the patient's sections and unresolved queries of any record (ADR 051).
  ...monitoringFacts.partial().shape,
});
export type PatientDetail = z.infer<typeof patientDetail>;

export const patientBasic = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  login: z.string(),
  firstname: z.string(),
  surname: z.string(),
  pesel: z.string(),
  unit_id: z.number().int(),
  deleted_at: nullableTimestamp,
});
export type PatientBasic = z.infer<typeof patientBasic>;

export const patientListItem = z.object({
  id: z.number().int(),
  firstname: z.string(),
  surname: z.string(),
  pesel: z.string(),
  phone_number: z.string(),
  email: z.string().nullable(),
  address_street: z.string().nullable(),
  address_building: z.string().nullable(),
  address_apartment: z.string().nullable(),
  address_postcode: z.string().nullable(),
  address_city: z.string().nullable(),
  group: z.object({ id: z.number().int(), nr: z.number().int(), name: z.string() }).nullable(),
  subgroup: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  medicines: z.array(
    z.object({ id: z.number().int(), name: z.string(), dose: z.number().nullable() }),
  ),
  doctor: person,
  unit_id: z.number().int(),
  is_finished: z.union([z.literal(0), z.literal(1)]),
  past_visit_date: z.string().nullable(),
  next_visit_date: z.string().nullable(),
  deleted_at: nullableTimestamp,
  /** The signed-in user's abilities on this patient (ADR 045). */
  abilities: patientAbilities,
});
export type PatientListItem = z.infer<typeof patientListItem>;

const idList = idListField().optional();

export const PATIENT_ORDER_BY = ['id', 'surname', 'pesel', 'group'] as const;
/**
 * The patients list pages by offset (docs/product-rules.md "Lists and paging") and answers
 * `total_count`.
 */
export const patientListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  order_by: z.enum(PATIENT_ORDER_BY).default('id'),
  order_direction: z
    .enum(['asc', 'desc', 'ASC', 'DESC'])
    .default('asc')
    .transform((d) => d.toLowerCase() as 'asc' | 'desc'),
  search: text().optional(),
  groups: idList,
  sub_groups: idList,
  medicines: idList,
  doctors: idList,
  is_finished: z.enum(['0', '1']).transform(Number).optional(),
  /** One unit within reach (404 otherwise, as the other lists answer; ADR 060). */
  unit_id: queryIdField().optional(),
  /** `0`: active patients only (the dashboard's patients tile), `1`: deleted ones only. */
  deleted: z.enum(['0', '1']).transform(Number).optional(),
});
export type PatientListQuery = z.infer<typeof patientListQuery>;
export const patientList = z.object({
  data: z.array(patientListItem),
  total_count: z.number().int(),
  total_kind: totalKind,
});

/**
 * GET /api/patients/cards (ADR 038): the patients list's query and page, each row shaped for a
 * card: the group as the list presents it (`{id, nr, name}`, null before an inclusion), the last
 * visit before today and the next from today on (YYYY-MM-DD, Warsaw).
 */
export const patientCard = z.object({
  id: z.number().int(),
  firstname: z.string(),
  surname: z.string(),
  pesel: z.string(),
  group: z.object({ id: z.number().int(), nr: z.number().int(), name: z.string() }).nullable(),
  last_visit_date: z.string().nullable(),
  next_visit_date: z.string().nullable(),
});
export type PatientCard = z.infer<typeof patientCard>;
export const patientCardList = z.object({
  data: z.array(patientCard),
  total_count: z.number().int(),
  total_kind: totalKind,
});
export type PatientCardList = z.infer<typeof patientCardList>;

/**
 * GET /api/patients/options: search-as-you-type for pickers (issue 8), at most PICKER_LIMIT
 * reachable, not deleted patients matching a name or PESEL, plus those named in `ids` (so that a
 * picker can show what is already chosen).
 */
export const patientOptionsQuery = z.object({
  search: text({ max: 100 }).optional(),
  ids: idListField().optional(),
});
export type PatientOptionsQuery = z.infer<typeof patientOptionsQuery>;
export const patientOptions = z.object({ data: z.array(patientBasic) });

/**
 * GET /api/patients/all (docs/product-rules.md "Lists and paging") pages: a whole table is never
 * sent at once.
 */
export const patientAllQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  page: z.coerce.number().int().min(1).default(1),
  search: text({ max: 100 }).optional(),
});
export type PatientAllQuery = z.infer<typeof patientAllQuery>;
export const patientAll = pagedResponse(patientBasic);

export const peselQuery = z.object({
  pesel: text({ max: 64 }),
  except_id: queryIdField().optional(),
});
export const peselStatus = z.object({
  status: z.enum(['success', 'exist_patient', 'validation_error']),
});
export type PeselStatus = z.infer<typeof peselStatus>['status'];

/**
 * GET /api/patients/next_project_number: the project number the registration wizard offers
 * (ADR 041), free among active patients and never a deleted one's; editable, not reserved.
 */
export const nextProjectNumber = z.object({ project_number: z.string() });
export type NextProjectNumber = z.infer<typeof nextProjectNumber>;
