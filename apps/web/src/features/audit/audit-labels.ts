import {
  AUDIT_CODED_KINDS,
  auditColumnKind,
  formatDateTime,
  formatDay,
  isAuditReferenceKind,
} from '@portal/shared';
import type { AuditColumnKind, AuditEntry } from '@portal/shared';
import { htmlToText } from '../../lib/rich-text';

/**
 * How the audit trail reads (ADR 042): which words name a table, a column and a coded value,
 * and how a stored value is written out. The map of what each audited column is lives in
 * `@portal/shared` (AUDITED_COLUMNS); the words live in the i18n files under `audit.`.
 */

/** The part of i18next's `t` these helpers use (keys are built, so they are plain strings). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;
/** `i18n.exists`, to fall back where a value has no word. */
export type Exists = (key: string) => boolean;

/** The i18n key of a column's label: the table's own word where the flat one would mislead. */
export function columnLabelKey(entity: string, column: string, exists: Exists): string {
  const own = `audit.entityColumns.${entity}.${column}`;
  return exists(own) ? own : `audit.columns.${column}`;
}

/** A column's label, or the column itself when no word is known (a table outside the map). */
export function columnLabel(entity: string, column: string, t: Translate, exists: Exists): string {
  const key = columnLabelKey(entity, column, exists);
  return exists(key) ? t(key) : column;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+\.\d+$/;
const TAG = /<[a-z][^>]*>/i;
const TIME = /^(\d{2}:\d{2})(:\d{2}(\.\d+)?)?$/;

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

function parsed(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An analyte's (or a measure's) name: the column's word where there is one (ALT, Bilirubina). */
function analyteName(key: string, t: Translate, exists: Exists): string {
  return exists(`audit.columns.${key}`) ? t(`audit.columns.${key}`) : key;
}

const plain = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';

/** JSON the laboratory sent or a rule computed, written as "ALT: 10-40 U/L; AST: …". */
function structuredValue(
  kind: AuditColumnKind,
  value: string,
  t: Translate,
  exists: Exists,
  language: string,
): string | undefined {
  const data = parsed(value);
  if (!isRecord(data)) return undefined;
  const number = (n: unknown) =>
    typeof n === 'number' ? n.toLocaleString(language, { maximumFractionDigits: 6 }) : plain(n);
  const parts: string[] = [];
  if (kind === 'lab_comments') {
    if (typeof data.sample === 'string' && data.sample) parts.push(data.sample);
    const results = isRecord(data.results) ? data.results : {};
    for (const [key, text] of Object.entries(results))
      parts.push(`${analyteName(key, t, exists)}: ${plain(text)}`);
    return parts.join('; ') || '-';
  }
  for (const [key, item] of Object.entries(data)) {
    const name = analyteName(key, t, exists);
    if (kind === 'lab_ranges' && isRecord(item)) {
      const text =
        plain(item.text) ||
        [item.min, item.max].map((n) => (n === null || n === undefined ? '' : number(n))).join('–');
      parts.push(`${name}: ${[text, plain(item.unit)].filter(Boolean).join(' ')}`);
    } else if (kind === 'comparators' && isRecord(item)) {
      const upper = item.upper === null || item.upper === undefined ? '' : ` ${number(item.upper)}`;
      parts.push(`${name}: ${plain(item.comparator)}${upper}`);
    } else {
      parts.push(`${name}: ${isRecord(item) ? JSON.stringify(item) : number(item)}`);
    }
  }
  return parts.join('; ') || '-';
}

export interface ValueContext {
  t: Translate;
  exists: Exists;
  language: string;
}

/**
 * One side (old or new) of an entry as the reader meets it: names for ids (from the server's
 * answer), words for coded values, text for JSON, the portal's formats for the rest.
 */
export function entryValue(entry: AuditEntry, side: 'old' | 'new', context: ValueContext): string {
  const { t, exists, language } = context;
  const value = side === 'old' ? entry.old_value : entry.new_value;
  if (value === null || value.trim() === '') return '-';
  const kind = auditColumnKind(entry.entity_name, entry.column_name);
  if (isAuditReferenceKind(kind)) {
    return (side === 'old' ? entry.old_name : entry.new_name) ?? t('audit.unknownRecord');
  }
  if ((AUDIT_CODED_KINDS as readonly string[]).includes(kind)) {
    const word = `audit.values.${kind}.${value}`;
    if (exists(word)) return t(word);
  }
  if (kind === 'time') return TIME.exec(value)?.[1] ?? value;
  if (
    kind === 'lab_ranges' ||
    kind === 'comparators' ||
    kind === 'lab_comments' ||
    kind === 'alert_details'
  ) {
    return structuredValue(kind, value, t, exists, language) ?? value;
  }
  return auditValue(value, { yes: t('audit.valueTrue'), no: t('audit.valueFalse') }, language);
}

/** Who made the change: the person by name, and what wrote it when it was not a person's edit. */
export function authorOf(entry: AuditEntry, t: Translate): { name: string; source: string | null } {
  const source = entry.source ? t(`audit.sources.${entry.source}`) : null;
  const person = entry.user.name ?? entry.user.login;
  if (person) return { name: person, source };
  return { name: source ?? t('audit.system'), source: null };
}
