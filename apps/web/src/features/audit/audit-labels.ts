import { formatDateTime, formatDay } from '@portal/shared';
import { htmlToText } from '../../lib/rich-text';

/** Tables the database audits (migration 0002), named as the spec's places of change. */
export const AUDITED_ENTITIES = [
  'patients',
  'patient_inclusions',
  'patient_medicines',
  'patient_additional_medicines',
  'notes',
  'files',
  'messages',
  // Samples and safety alerts (issue 10, migration 0013).
  'probes',
  'probe_medicines',
  'safety_alerts',
] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];

/** Columns with a readable name; any other column is shown as the database calls it. */
export const NAMED_COLUMNS = [
  'id',
  'user_id',
  'firstname',
  'surname',
  'pesel',
  'sex',
  'birth_date',
  'address_street',
  'address_building',
  'address_apartment',
  'address_postcode',
  'address_city',
  'phone_number',
  'email',
  'weight',
  'height',
  'project_number',
  'is_above_18',
  'is_classified',
  'is_finished',
  'acceptance',
  'exclusion_criteria_id',
  'doctor_id',
  'unit_id',
  'deleted_at',
  'patient_id',
  'group_id',
  'subgroup_id',
  'dose',
  'interval',
  'medicine_id',
  'name',
  'content',
  'author_user_id',
  'ref_type',
  'ref_id',
  'original_name',
  'mime_type',
  'size_bytes',
  'comment',
  'uploaded_by',
  'sender_user_id',
  'receiver_user_id',
  'read_at',
  // Samples and safety alerts (issue 10).
  'code',
  'visit_id',
  'probe_number',
  'status',
  'date_of_sample',
  'type_of_test',
  'type_of_material',
  'collect_place',
  'is_cito',
  'carrier_id',
  'ordered_by_firstname',
  'ordered_by_surname',
  'ordered_at',
  'patient_firstname',
  'patient_surname',
  'patient_address_street',
  'patient_address_building',
  'patient_address_postcode',
  'patient_address_city',
  'laboratory_address',
  'laboratory_postcode',
  'laboratory_city',
  'adverse_events',
  'alt',
  'ast',
  'creatine',
  'bilirubine',
  'concentration_hours',
  'concentration_date_of_analysis',
  'results_at',
  'arrived_at',
  'arrived_by',
  'created_by',
  'version',
  'created_at',
  'updated_at',
  'probe_id',
  'concentration',
  'rule',
  'details',
  'acknowledged_at',
  'acknowledged_by',
  'acknowledge_comment',
] as const;
export type NamedColumn = (typeof NAMED_COLUMNS)[number];

export function isAuditedEntity(name: string): name is AuditedEntity {
  return (AUDITED_ENTITIES as readonly string[]).includes(name);
}

export function isNamedColumn(name: string): name is NamedColumn {
  return (NAMED_COLUMNS as readonly string[]).includes(name);
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+\.\d+$/;
const TAG = /<[a-z][^>]*>/i;

/**
 * A stored value as a reader wants it: empty as '-', booleans as words, instants and days in
 * the portal's formats (Warsaw time), rich text as plain text. React escapes the result.
 */
export function auditValue(
  value: string | null,
  words: { yes: string; no: string },
  language = 'pl',
): string {
  if (value === null || value.trim() === '') return '-';
  // Doses and measurements: a decimal comma in Polish.
  if (DECIMAL.test(value))
    return Number(value).toLocaleString(language, { maximumFractionDigits: 6 });
  if (value === 'true') return words.yes;
  if (value === 'false') return words.no;
  if (TIMESTAMP.test(value)) return formatDateTime(value.replace(' ', 'T'));
  if (DAY.test(value)) return formatDay(value);
  if (TAG.test(value)) return htmlToText(value) || '-';
  return value;
}

/** Columns that hold the id of a record with a name (medicine, doctor, unit, criteria). */
export const REFERENCE_COLUMNS = [
  'medicine_id',
  'doctor_id',
  'unit_id',
  'group_id',
  'subgroup_id',
  'exclusion_criteria_id',
] as const;
export type ReferenceColumn = (typeof REFERENCE_COLUMNS)[number];
export type ReferenceNames = Partial<Record<ReferenceColumn, ReadonlyMap<string, string>>>;

/** The name behind an id in a reference column, as "name (id)"; undefined when not known. */
export function referenceName(
  column: string,
  value: string | null,
  names: ReferenceNames,
): string | undefined {
  if (value === null || !(REFERENCE_COLUMNS as readonly string[]).includes(column))
    return undefined;
  const name = names[column as ReferenceColumn]?.get(value);
  return name ? `${name} (${value})` : undefined;
}
