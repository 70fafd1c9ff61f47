import type { Probe } from '@portal/shared';
import { formatMeasured } from '../../lib/measured-value';

type Range = Probe['concentration_range'][string];

/** A reference range in words: "9–59 U/l", "< 1,2 mg/dl", "≥ 5 ng/ml", "≤ 10 ng/ml". */
export function rangeText(range: Range | undefined, language: string): string | null {
  if (!range) return null;
  const n = (value: number) => formatMeasured(value, language);
  const unit = range.unit ? ` ${range.unit}` : '';
  if (range.below !== null) return `< ${n(range.below)}${unit}`;
  if (range.min !== null && range.max !== null) return `${n(range.min)}–${n(range.max)}${unit}`;
  if (range.max !== null) return `≤ ${n(range.max)}${unit}`;
  if (range.min !== null) return `≥ ${n(range.min)}${unit}`;
  return null;
}

type Qualifier = Probe['result_comparators'][string];

/**
 * A result as the laboratory qualified it (ADR 033): "< 0,5" below a detection limit, "> 1000"
 * above the measuring range, "≤ 3", "≥ 3", "10–20" a range; a plain number otherwise. Decimal
 * comma in Polish, point in English.
 */
export function resultText(
  value: number,
  qualifier: Qualifier | undefined,
  language: string,
): string {
  const n = (number: number) => formatMeasured(number, language);
  if (!qualifier) return n(value);
  switch (qualifier.comparator) {
    case '<':
      return `< ${n(value)}`;
    case '>':
      return `> ${n(value)}`;
    case '<=':
      return `≤ ${n(value)}`;
    case '>=':
      return `≥ ${n(value)}`;
    case '-':
      return qualifier.upper === null ? n(value) : `${n(value)}–${n(qualifier.upper)}`;
  }
}

/**
 * Units of the results (docs/product-rules.md "Sample results"); a range's own unit wins where it
 * has one.
 */
export const RESULT_UNITS = {
  alt: 'U/l',
  ast: 'U/l',
  creatine: 'mg/dl',
  bilirubine: 'mg/dl',
  concentration: 'ng/ml',
} as const;

/**
 * What a results field holds as a number for the API: '' means "not measured" (null). The
 * NumberInput already refuses text and minus signs; anything else that slips through is refused
 * by the server with a field message.
 */
export function resultFromInput(value: number | string): number | null {
  if (value === '' || value === null) return null;
  const parsed = typeof value === 'number' ? value : Number(value.replace(',', '.'));
  return Number.isFinite(parsed) ? parsed : null;
}

/** The key of a medicine's range and flag in `concentration_range` / `results_out_of_norm`. */
export const medicineKey = (medicineId: number) => `medicine_${medicineId}`;
