import type { ProbeCodePart } from './schemas/settings.js';

/**
 * The probe number (design §5 "Probe number", spec §9 "Probe code"): the configured parts in
 * order, each replaced by the patient's or the sample's value, literal digits kept, joined with
 * nothing between them.
 */
export interface ProbeCodeFacts {
  sex: 'M' | 'K';
  /** The participant number (the patient's project number); empty when none was given. */
  project_number: string | null;
  unit_id: number;
  /** The patient's n-th sample, from 1. */
  next_probe_number: number;
  /** The patient's inclusion group; null before inclusion. */
  group_id: number | null;
  type_of_material: 'venous' | 'capillary';
  collect_place: 'clinic' | 'home';
}

const MATERIAL = { venous: 'Z', capillary: 'W' } as const;
const PLACE = { clinic: 'P', home: 'D' } as const;

function partValue(part: ProbeCodePart, facts: ProbeCodeFacts): string {
  switch (part) {
    case 'sex':
      return facts.sex;
    case 'project_number':
      return facts.project_number ?? '';
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

export function buildProbeCode(config: readonly ProbeCodePart[], facts: ProbeCodeFacts): string {
  return config.map((part) => partValue(part, facts)).join('');
}
