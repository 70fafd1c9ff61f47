import { buildProbeCode, PROBE_CODE_PARTS } from '@portal/shared';
import type { ProbeCodeFacts, ProbeCodePart } from '@portal/shared';

/** Longest configuration the shared schema accepts (`probeConfigValue`). */
export const PROBE_CONFIG_MAX = 32;

/**
 * The variables of docs/product-rules.md "Probe number", then the digits; the palette shows them in
 * this order.
 */
export type DigitPart = Extract<ProbeCodePart, `${number}`>;
export type VariablePart = Exclude<ProbeCodePart, DigitPart>;

export function isDigit(part: ProbeCodePart): part is DigitPart {
  return /^[0-9]$/.test(part);
}

export const VARIABLE_PARTS = PROBE_CODE_PARTS.filter(
  (part): part is VariablePart => !isDigit(part),
);
export const DIGIT_PARTS = PROBE_CODE_PARTS.filter(isDigit);

/**
 * The patient the live example is built for: a man with participant number 17 in unit 3, his
 * 4th sample, group 2, venous blood drawn at the clinic.
 */
export const EXAMPLE_FACTS: ProbeCodeFacts = {
  sex: 'M',
  project_number: '17',
  participant_id: 17,
  unit_id: 3,
  next_probe_number: 4,
  group_id: 2,
  type_of_material: 'venous',
  collect_place: 'clinic',
};

export function exampleCode(parts: readonly ProbeCodePart[]): string {
  return buildProbeCode(parts, EXAMPLE_FACTS);
}

/** What one part contributes to the example ("M", "17", "ZP", "5"). */
export function exampleValue(part: ProbeCodePart): string {
  return buildProbeCode([part], EXAMPLE_FACTS);
}

/** A part placed in the sequence, with an id of its own: the same digit may appear twice. */
export interface PlacedPart {
  id: string;
  part: ProbeCodePart;
}

/** Moves the item at `from` to `to` (indexes in the list before the move). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = items.slice();
  const [moved] = copy.splice(from, 1);
  if (moved === undefined) return copy;
  copy.splice(to, 0, moved);
  return copy;
}

/** Inserts `item` at `index` (past the end: appended); nothing past the maximum length. */
export function insertItem<T>(items: readonly T[], item: T, index: number): T[] {
  if (items.length >= PROBE_CONFIG_MAX) return items.slice();
  const copy = items.slice();
  copy.splice(Math.max(0, Math.min(index, copy.length)), 0, item);
  return copy;
}
