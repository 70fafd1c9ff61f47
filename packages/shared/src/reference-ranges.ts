import type { Sex } from './pesel.js';

/**
 * Reference ranges and out-of-norm rules (docs/product-rules.md "Out of norm").
 * The ranges live in the database (`reference_ranges`, seeded from data/reference-ranges.json);
 * these pure functions pick the patient's range and judge a value, on the server and the web.
 */

/** A range resolved for one patient: `min..max`, or a "<" limit the value must stay below. */
export interface ReferenceRange {
  unit: string;
  min: number | null;
  max: number | null;
  below: number | null;
  /** 'laboratory': the laboratory's own range, sent with the result, not the study's. */
  source?: 'laboratory';
}

/** One stored row: `sex` null applies to both sexes. */
export interface ReferenceRangeRow extends ReferenceRange {
  kind: 'biochemistry' | 'drug' | 'ecg';
  analyte: string;
  sex: Sex | null;
}

/** The range of an analyte for the patient's sex: a row for that sex wins over one for both. */
export function rangeFor(
  rows: readonly ReferenceRangeRow[],
  kind: ReferenceRangeRow['kind'],
  analyte: string,
  sex: Sex,
): ReferenceRange | null {
  const own = rows.find((row) => row.kind === kind && row.analyte === analyte && row.sex === sex);
  const both = rows.find((row) => row.kind === kind && row.analyte === analyte && !row.sex);
  const row = own ?? both;
  return row ? { unit: row.unit, min: row.min, max: row.max, below: row.below } : null;
}

/**
 * Out of norm: outside `min..max` (either bound may be absent), or not below a "<" limit. A
 * missing value or a missing range is never out of norm.
 */
export function isOutOfNorm(
  value: number | null | undefined,
  range: ReferenceRange | null,
): boolean {
  if (value === null || value === undefined || !range) return false;
  if (range.min !== null && value < range.min) return true;
  if (range.max !== null && value > range.max) return true;
  if (range.below !== null && !(value < range.below)) return true;
  return false;
}

/**
 * How a laboratory qualified a result (HL7 SN, ADR 033): `<` / `<=` a value below a detection
 * limit (the stored value is the limit), `>` / `>=` one above the measuring range, `-` a range
 * from the stored value to `upper`.
 */
export interface ResultComparator {
  comparator: '<' | '<=' | '>' | '>=' | '-';
  /** The range's upper end (`-` only). */
  upper: number | null;
}

/**
 * Out of norm for a qualified result (ADR 033): flagged when the true value may lie above the
 * upper limit (the safe side for liver enzymes and drug levels), or surely lies below the lower
 * one. So `<0.5` under a max of 1.2 is in norm, `<5` over it is flagged; `>1000` is flagged
 * whenever the range has an upper limit; `10-20` is flagged when 20 exceeds the upper limit or
 * lies below the lower. A plain value (no comparator) is judged by isOutOfNorm.
 */
export function isOutOfNormQualified(
  value: number | null | undefined,
  qualifier: ResultComparator | null | undefined,
  range: ReferenceRange | null,
): boolean {
  if (!qualifier) return isOutOfNorm(value, range);
  if (value === null || value === undefined || !range) return false;
  const { comparator } = qualifier;
  // The highest value the result allows (Infinity for `>`), and whether it may equal it.
  const high =
    comparator === '-' ? (qualifier.upper ?? value) : comparator.startsWith('>') ? Infinity : value;
  const highIncluded = comparator !== '<';
  const mayBeAbove =
    (range.max !== null && high > range.max) ||
    (range.below !== null && (high > range.below || (high === range.below && highIncluded)));
  // Surely below the lower limit: every value the result allows is under it.
  const surelyBelow =
    range.min !== null &&
    (comparator === '<'
      ? value <= range.min
      : comparator === '<=' || comparator === '-'
        ? high < range.min
        : false);
  return mayBeAbove || surelyBelow;
}

/** The upper limit of normal (ULN) of a range: its maximum, or its "<" limit. */
export function upperLimitOfNormal(range: ReferenceRange | null): number | null {
  if (!range) return null;
  return range.max ?? range.below;
}
