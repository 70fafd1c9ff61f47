import type { ProbeCodePart } from './schemas/settings.js';

/**
 * Barcode-safe codes (ADR 035): ASCII letters, digits and `-`, at most 32 characters, so the
 * DataMatrix, the printed text, a scanner in any keyboard layout (ISO-8859-1 ones included) and
 * the database hold the same bytes, and no `^`, `~` or control character reaches a printer.
 */
export const PROBE_CODE_MAX = 32;
/**
 * What the builder gives at most: 3 characters fewer than the maximum, so a suffix `-2` … `-99`
 * (a code another sample has already) still fits whole. Longer suffixes shorten the base.
 */
export const PROBE_CODE_BASE_MAX = PROBE_CODE_MAX - 3;
export const PROBE_CODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

const POLISH: Record<string, string> = {
  Ą: 'A',
  Ć: 'C',
  Ę: 'E',
  Ł: 'L',
  Ń: 'N',
  Ó: 'O',
  Ś: 'S',
  Ź: 'Z',
  Ż: 'Z',
  ą: 'a',
  ć: 'c',
  ę: 'e',
  ł: 'l',
  ń: 'n',
  ó: 'o',
  ś: 's',
  ź: 'z',
  ż: 'z',
};

/**
 * Text made barcode-safe: Polish letters transliterated (Ł→L, ż→z; also when typed as a letter
 * and a combining accent), everything else outside A–Z, a–z, 0–9 and `-` dropped (spaces, `~`,
 * `^`, `_`, CR, LF, other scripts). Case is kept; the reception compares without it.
 */
export function barcodeSafe(value: string): string {
  let out = '';
  // NFC first: an "o" with a combining acute is the same letter as "ó".
  for (const char of value.normalize('NFC')) {
    const mapped = POLISH[char] ?? char;
    if (/^[A-Za-z0-9-]$/.test(mapped)) out += mapped;
  }
  return out;
}

/**
 * The probe number (docs/product-rules.md "Probe number"): the configured parts in order, each
 * replaced by the patient's or the sample's value, literal digits kept, joined with nothing
 * between them.
 */
export interface ProbeCodeFacts {
  sex: 'M' | 'K';
  /** The patient's project number; null (or nothing a code can carry) when none was given. */
  project_number: string | null;
  /** The participant number (the patient's id): stands in for a missing project number. */
  participant_id: number;
  unit_id: number;
  /** The patient's n-th sample, from 1. */
  next_probe_number: number;
  /** The patient's inclusion group; null before inclusion. */
  group_id: number | null;
  type_of_material: 'venous' | 'capillary';
  collect_place: 'clinic' | 'home';
}

/**
 * The key two project numbers are compared by (ADR 041): what a code carries of the number
 * (`barcodeSafe`), in lower case, as codes are compared. The database's unique index
 * `patients_project_number_key` computes the same with `portal_participant_key` (migration
 * 0023). Empty: the number gives nothing to a code, so it is no number.
 */
export function participantKey(projectNumber: string | null | undefined): string {
  return barcodeSafe(projectNumber ?? '').toLowerCase();
}

/**
 * The "Numer uczestnika" part of a code (ADR 041): the patient's project number, or, where the
 * patient has none (records from before numbers were unique and required), the participant
 * number (the patient's id) padded to three digits, so that every code names its participant.
 */
export function participantPart(projectNumber: string | null, participantId: number): string {
  return participantKey(projectNumber) !== ''
    ? (projectNumber ?? '')
    : String(participantId).padStart(3, '0');
}

const MATERIAL = { venous: 'Z', capillary: 'W' } as const;
const PLACE = { clinic: 'P', home: 'D' } as const;

function partValue(part: ProbeCodePart, facts: ProbeCodeFacts): string {
  switch (part) {
    case 'sex':
      return facts.sex;
    case 'project_number':
      return participantPart(facts.project_number, facts.participant_id);
    case 'unit_id':
      return String(facts.unit_id);
    case 'next_probe_number':
      return String(facts.next_probe_number);
    case 'group_id':
      return facts.group_id === null ? '' : String(facts.group_id);
    case 'material_type':
      return MATERIAL[facts.type_of_material];
    case 'collect_place':
      return PLACE[facts.collect_place];
    case 'material_type_and_place':
      return MATERIAL[facts.type_of_material] + PLACE[facts.collect_place];
    default:
      // A literal digit "0"–"9".
      return part;
  }
}

/**
 * The code of the configured parts, barcode-safe (see `barcodeSafe`) and at most
 * PROBE_CODE_BASE_MAX characters. Only the participant number is free text of any length: it
 * is shortened first (from its end), so the unit, the sample's number and the material stay on
 * the label; a configuration still too long is cut at the end.
 */
export function buildProbeCode(config: readonly ProbeCodePart[], facts: ProbeCodeFacts): string {
  const values = config.map((part) => barcodeSafe(partValue(part, facts)));
  const free = config.filter((part) => part === 'project_number').length;
  const fixed = values.reduce(
    (sum, value, i) => sum + (config[i] === 'project_number' ? 0 : value.length),
    0,
  );
  const room = free === 0 ? 0 : Math.max(0, Math.floor((PROBE_CODE_BASE_MAX - fixed) / free));
  return values
    .map((value, i) => (config[i] === 'project_number' ? value.slice(0, room) : value))
    .join('')
    .slice(0, PROBE_CODE_BASE_MAX);
}

/**
 * The n-th variant of a code another sample already has: `base-2`, `base-3`, …, the base
 * shortened when the suffix would pass PROBE_CODE_MAX.
 */
export function suffixedProbeCode(base: string, n: number): string {
  const suffix = `-${n}`;
  return base.slice(0, PROBE_CODE_MAX - suffix.length) + suffix;
}

/**
 * A home-sampling kit's code, printed on its labels before any sample is drawn (ADR 035):
 * `ZESTAW-{order id}-{kit number}`, barcode-safe and unlike any sample code the configuration
 * can make (those carry no word), so a scanned kit label is never taken for a sample.
 */
export function kitCode(probeSetId: number, kitNumber: number): string {
  return `ZESTAW-${probeSetId}-${kitNumber}`;
}
