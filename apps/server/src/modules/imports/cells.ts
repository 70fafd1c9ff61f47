import type { CellValue } from './read/types.js';

/*
 * Cells as the readers give them (text from csv, numbers, booleans and dates from spreadsheets)
 * turned into what the shared zod schemas take; a cell that cannot be turned is passed through
 * unchanged so that the schema names the error.
 */

export function isBlank(value: CellValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !value.trim());
}

/** Text as typed; a number as its digits (a phone number typed into a number cell). */
export function textCell(value: CellValue | undefined): string | null {
  if (isBlank(value)) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value).trim();
}

/** A number; "12,5" (Polish decimal comma) too. Anything else stays text for the schema. */
export function numberCell(value: CellValue | undefined): number | string | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number') return value;
  const text = String(value).trim().replace(',', '.');
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : String(value);
}

const TRUE = new Set(['1', 'true', 'tak', 't', 'yes', 'y', 'prawda']);
const FALSE = new Set(['0', 'false', 'nie', 'n', 'no', 'fałsz']);

/** 1/0, tak/nie, true/false; blank → undefined (the schema's default). */
export function booleanCell(value: CellValue | undefined): boolean | string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return String(value);
}

/** A PESEL typed into a number cell lost its leading zeros (born 2000–2009: "0…"). */
export function peselCell(value: CellValue | undefined): string | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    return String(value).padStart(11, '0');
  }
  return textCell(value);
}

/** YYYY-MM-DD from a date cell, DD.MM.YYYY or YYYY-MM-DD; null when blank, undefined when bad. */
export function dateCell(value: CellValue | undefined): string | null | undefined {
  if (isBlank(value)) return null;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  }
  const text = String(value).trim();
  const polish = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [y, m, d] = polish
    ? [polish[3], polish[2], polish[1]]
    : iso
      ? [iso[1], iso[2], iso[3]]
      : [];
  if (!y || !m || !d) return undefined;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  return date.toISOString().slice(0, 10);
}
