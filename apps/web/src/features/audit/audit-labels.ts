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
