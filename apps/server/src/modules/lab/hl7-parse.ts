import { Hl7Message } from '@medplum/core';
import type { Hl7Segment } from '@medplum/core';
import { RESULT_PLAUSIBLE_MAX } from '@portal/shared';
import type { LabRange } from '../../db/schema.js';
import type { BiochemistryAnalyte, LabAnalyte, LabResult } from './apply-results.js';

/**
 * The laboratory's HL7 v2.5 ORU^R01 mapped to results (design §6 "Laboratory", ADR 032).
 * @medplum/core parses the ER7; this file only maps fields and refuses what it cannot trust.
 * Reasons are short, name the segment and field, and never carry patient data (they go into
 * the ACK, `lab_messages.error` and the last error on /settings/synevo).
 */

/** A medicine the laboratory may report: OBX-3 carries its CAS number or its INN. */
export interface MedicineCode {
  id: number;
  inn: string;
  cas: string;
}

/**
 * OBX-3 drug codes → medicine id: each medicine's CAS number and INN, upper case (OBX-3 is
 * compared upper case). The data import reads HL7 v2 XML files with the same map.
 */
export function medicineIdsByCode(medicines: readonly MedicineCode[]): Map<string, number> {
  const byCode = new Map<string, number>();
  for (const medicine of medicines) {
    byCode.set(medicine.cas.toUpperCase(), medicine.id);
    byCode.set(medicine.inn.toUpperCase(), medicine.id);
  }
  return byCode;
}

/** One result with where it came from, before it is matched to a sample. */
export interface ParsedResult extends LabResult {
  probeCode: string;
  /** The unit as the laboratory wrote it (OBX-6). */
  unit: string;
  /** PID-8 (M, or F → K) and PID-7 of the patient group the result belongs to. */
  patientSex: 'M' | 'K' | null;
  patientBirthDate: string | null;
  /** The OBX and PID fields as received, kept with an unmatched result. */
  raw: Record<string, string>;
}

export interface ParsedOru {
  controlId: string;
  sendingFacility: string | null;
  results: ParsedResult[];
}

export type ParseOutcome =
  | { ok: true; message: Hl7Message; oru: ParsedOru }
  | { ok: false; message: Hl7Message | null; controlId: string | null; reason: string };

/**
 * OBX-3 code for "hours since the last dose" (unit `h`): it applies to the drug concentrations
 * of its own OBR (our convention with the laboratory, documented in ADR 032).
 */
export const HOURS_CODE = 'HSLD';

const BIOCHEMISTRY_CODES: Record<string, BiochemistryAnalyte> = {
  ALT: 'alt',
  AST: 'ast',
  CREA: 'creatine',
  BIL: 'bilirubine',
};

/** Canonical unit per analyte kind, and the spellings accepted for it (compared lower-case). */
const UNITS: Record<'enzyme' | 'chemistry' | 'drug', { canonical: string; accepted: string[] }> = {
  enzyme: { canonical: 'U/l', accepted: ['u/l', 'iu/l'] },
  chemistry: { canonical: 'mg/dl', accepted: ['mg/dl'] },
  // 1 µg/l is 1 ng/ml.
  drug: { canonical: 'ng/ml', accepted: ['ng/ml', 'µg/l', 'μg/l', 'ug/l'] },
};

/**
 * Fields each segment may have in v2.5 (more is a malformed message) and must reach (the
 * fields this mapping reads). Other segments (SFT, PV1, ORC, SPM, …) are allowed and ignored.
 */
const FIELD_COUNTS: Record<string, { min: number; max: number }> = {
  MSH: { min: 12, max: 21 },
  PID: { min: 3, max: 39 },
  OBR: { min: 3, max: 50 },
  OBX: { min: 6, max: 25 },
  NTE: { min: 1, max: 4 },
};

/** A finite number ≥ 0 written plainly ("12", "0.8", "1,2"); exponents and signs are refused. */
const NUMBER = /^[0-9]{1,12}([.,][0-9]{1,12})?$/;

// MLLP's start block (VT) and end block (FS CR): control characters are the point here.
// eslint-disable-next-line no-control-regex
const MLLP_START = /^\u000b/;
// eslint-disable-next-line no-control-regex
const MLLP_END = /\u001c\r?$/;

class Refusal extends Error {}

const refuse = (reason: string): never => {
  throw new Refusal(reason);
};

/** Parses and maps one ER7 message; every problem refuses the whole message. */
export function parseOru(text: string, medicines: readonly MedicineCode[]): ParseOutcome {
  // MLLP framing (VT … FS CR) sometimes survives a bridge to HTTP.
  const er7 = text.replace(MLLP_START, '').replace(MLLP_END, '').trim();
  // NUL cannot be stored in PostgreSQL text; other controls have no place in ER7 either.
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(er7)) {
    return {
      ok: false,
      message: null,
      controlId: null,
      reason: 'control characters in the message',
    };
  }
  let message: Hl7Message;
  try {
    message = Hl7Message.parse(er7);
  } catch {
    return { ok: false, message: null, controlId: null, reason: 'unparsable message' };
  }
  const header = message.header;
  const controlId = header.getField(10)?.toString().trim() || null;
  try {
    const oru = mapOru(message, medicines);
    return { ok: true, message, oru };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ok: false, message, controlId, reason: error.message };
  }
}

/** Field count of a segment: MSH counts its MSH-1 separator, which medplum does not store. */
function fieldCount(segment: Hl7Segment): number {
  return segment.name === 'MSH' ? segment.fields.length : segment.fields.length - 1;
}

function field(segment: Hl7Segment, index: number, component = 1): string {
  return segment.getComponent(index, component).trim();
}

function mapOru(message: Hl7Message, medicines: readonly MedicineCode[]): ParsedOru {
  const segments = message.segments.filter((segment) => segment.toString().trim() !== '');
  segments.forEach((segment, index) => {
    if (!/^[A-Z][A-Z0-9]{2}$/.test(segment.name)) refuse(`segment ${index + 1}: unknown name`);
    const counts = FIELD_COUNTS[segment.name];
    const count = fieldCount(segment);
    if (counts && (count < counts.min || count > counts.max)) {
      refuse(`${segment.name} (segment ${index + 1}): wrong field count ${count}`);
    }
  });
  const header = segments[0];
  if (!header || header.name !== 'MSH') return refuse('MSH missing');
  if (field(header, 9, 1) !== 'ORU' || field(header, 9, 2) !== 'R01') {
    refuse('MSH-9: not ORU^R01');
  }
  const controlId = header.getField(10).toString().trim();
  if (controlId === '' || controlId.length > 199) refuse('MSH-10: control id missing or too long');
  const sendingFacility = field(header, 4) || null;

  const byCode = medicineIdsByCode(medicines);

  let patient: { sex: 'M' | 'K' | null; birthDate: string | null; raw: Record<string, string> } = {
    sex: null,
    birthDate: null,
    raw: {},
  };
  let order: { code: string; date: string | null; hours: number | null } | null = null;
  let orderResults: ParsedResult[] = [];
  const results: ParsedResult[] = [];
  const seen = new Set<string>();
  const closeOrder = () => {
    if (order) for (const result of orderResults) result.hours = order.hours;
    results.push(...orderResults);
    orderResults = [];
  };

  for (const segment of segments.slice(1)) {
    if (segment.name === 'PID') {
      closeOrder();
      order = null;
      patient = mapPatient(segment);
    } else if (segment.name === 'OBR') {
      closeOrder();
      const code = segment.getField(3).getComponent(1).trim();
      if (code === '') refuse('OBR-3: filler order number (sample code) missing');
      if (code.length > 64) refuse('OBR-3: sample code too long');
      const observed = field(segment, 7);
      order = { code, date: observed ? hl7Date(observed, 'OBR-7') : null, hours: null };
    } else if (segment.name === 'OBX') {
      if (!order) return refuse('OBX before OBR');
      const setId = field(segment, 1) || '?';
      const where = `OBX ${setId}`;
      const code = field(segment, 3, 1).toUpperCase();
      const valueText = segment.getField(5).toString().trim();
      const unitText = segment.getField(6).getComponent(1).trim();
      if (code === HOURS_CODE) {
        if (unitText.toLowerCase() !== 'h') refuse(`${where}: OBX-6 unit must be h`);
        order.hours = plausible(valueText, RESULT_PLAUSIBLE_MAX.hours, where);
        continue;
      }
      const analyte = analyteOf(code, byCode);
      if (!analyte) return refuse(`${where}: OBX-3 unknown analyte`);
      const valueType = field(segment, 2);
      if (valueType !== '' && valueType !== 'NM' && valueType !== 'SN') {
        refuse(`${where}: OBX-2 value type must be NM`);
      }
      const kind = kindOf(analyte);
      const max = kind === 'drug' ? RESULT_PLAUSIBLE_MAX.concentration : plausibleMax(analyte);
      const value = plausible(valueText, max, where);
      const units = UNITS[kind];
      if (!units.accepted.includes(unitText.toLowerCase())) refuse(`${where}: OBX-6 wrong unit`);
      const rangeText = segment.getField(7).toString().trim();
      const observed = field(segment, 14);
      const key = `${order.code}\u0000${analyte}`;
      if (seen.has(key)) refuse(`${where}: analyte repeated for one sample`);
      seen.add(key);
      orderResults.push({
        probeCode: order.code,
        analyte,
        value,
        unit: units.canonical,
        labRange: rangeText ? labRange(rangeText, units.canonical) : null,
        dateOfAnalysis: observed ? hl7Date(observed, `${where}: OBX-14`) : order.date,
        hours: null,
        patientSex: patient.sex,
        patientBirthDate: patient.birthDate,
        raw: {
          ...patient.raw,
          'OBR-3': order.code,
          'OBX-3': segment.getField(3).toString(),
          'OBX-5': valueText,
          'OBX-6': segment.getField(6).toString(),
          'OBX-7': rangeText,
          'OBX-14': observed,
        },
      });
    }
  }
  closeOrder();
  if (results.length === 0) refuse('no results (OBX) in the message');
  return { controlId, sendingFacility, results };
}

function mapPatient(segment: Hl7Segment) {
  const sexText = field(segment, 8).toUpperCase();
  const sex: 'M' | 'K' | null = sexText === 'M' ? 'M' : sexText === 'F' ? 'K' : null;
  if (sexText !== '' && sexText !== 'M' && sexText !== 'F' && sexText !== 'U' && sexText !== 'O') {
    refuse('PID-8: unknown sex');
  }
  const birth = field(segment, 7);
  const birthDate = birth ? hl7Date(birth, 'PID-7') : null;
  return {
    sex,
    birthDate,
    raw: { 'PID-7': birth, 'PID-8': sexText },
  };
}

function analyteOf(code: string, medicines: Map<string, number>): LabAnalyte | null {
  const biochemistry = BIOCHEMISTRY_CODES[code];
  if (biochemistry) return biochemistry;
  const medicineId = medicines.get(code);
  return medicineId === undefined ? null : `medicine_${medicineId}`;
}

function kindOf(analyte: LabAnalyte): 'enzyme' | 'chemistry' | 'drug' {
  if (analyte === 'alt' || analyte === 'ast') return 'enzyme';
  if (analyte === 'creatine' || analyte === 'bilirubine') return 'chemistry';
  return 'drug';
}

function plausibleMax(analyte: LabAnalyte): number {
  return RESULT_PLAUSIBLE_MAX[analyte as BiochemistryAnalyte];
}

/** OBX-5: a plain finite number from 0 to the plausible maximum; text, NaN and 1e400 refuse. */
function plausible(text: string, max: number, where: string): number {
  if (!NUMBER.test(text)) return refuse(`${where}: OBX-5 not a number`);
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value) || value < 0 || value > max) {
    refuse(`${where}: OBX-5 out of the plausible range`);
  }
  return value;
}

/** An HL7 TS (YYYYMMDD[HHMM[SS]][±ZZZZ]) → its calendar day YYYY-MM-DD, as the laboratory wrote it. */
export function hl7Date(text: string, where: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2,6}(\.\d{1,4})?)?([+-]\d{4})?$/.exec(text);
  if (!match) return refuse(`${where}: not a date`);
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (
    date.getUTCFullYear() !== Number(year) ||
    date.getUTCMonth() !== Number(month) - 1 ||
    date.getUTCDate() !== Number(day) ||
    Number(year) < 1900
  ) {
    refuse(`${where}: not a date`);
  }
  return `${year}-${month}-${day}`;
}

/**
 * OBX-7, the laboratory's reference range: "10-40", "0,3 - 1,2", "<1.2", "<=1.2", ">5". Text it
 * cannot read is kept as text without bounds (the study's range then applies).
 */
export function labRange(text: string, unit: string): LabRange | null {
  const kept = text.slice(0, 100);
  const num = '([0-9]+(?:[.,][0-9]+)?)';
  const toNumber = (value: string) => Number(value.replace(',', '.'));
  const between = new RegExp(`^${num}\\s*-\\s*${num}$`).exec(kept);
  if (between) {
    const min = toNumber(between[1] ?? '');
    const max = toNumber(between[2] ?? '');
    return min <= max ? { text: kept, min, max, unit } : { text: kept, min: null, max: null, unit };
  }
  const below = new RegExp(`^<=?\\s*${num}$`).exec(kept);
  if (below) return { text: kept, min: null, max: toNumber(below[1] ?? ''), unit };
  const above = new RegExp(`^>=?\\s*${num}$`).exec(kept);
  if (above) return { text: kept, min: toNumber(above[1] ?? ''), max: null, unit };
  return { text: kept, min: null, max: null, unit };
}
