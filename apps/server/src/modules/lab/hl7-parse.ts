import { RESULT_PLAUSIBLE_MAX } from '@portal/shared';
import type { LabErrorCode, LabErrorParams, ResultComparator } from '@portal/shared';
import type { LabRange } from '../../db/schema.js';
import type { BiochemistryAnalyte, LabAnalyte, LabResult } from '../results/index.js';
import { SUPPORTED_VERSIONS, UNKNOWN_HEADER } from './hl7-ack.js';
import type { AckError, AckHeader, ErrorCode, ErrorLocation } from './hl7-ack.js';
import { separatorsOf, splitEr7, unescapeHl7 } from './hl7-er7.js';
import type { Separators, Er7Segment } from './hl7-er7.js';

/**
 * The laboratory's HL7 v2 ORU^R01 mapped to results (ADRs 032 and 033).
 * @medplum/core splits the ER7; this file decodes each value once (hl7-er7.ts) and maps fields.
 * A message is refused whole only for what makes its results untrustworthy (a value that is no
 * number, a wrong unit, a date in the future, …); comments are kept and an unknown analyte waits
 * among the unmatched results. Reasons are short, name the segment and field, carry an HL7 table
 * 0357 code, and never carry patient data (they go into the ACK and `lab_messages.error`). Each
 * also carries a code for the portal's users with the sample and analyte it concerns (ADR 032),
 * which the web says in their language.
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
  /** PID-5: family and given name, as sent (null when not sent). */
  patientSurname: string | null;
  patientFirstname: string | null;
  /** The OBX and PID fields as received (decoded), kept with an unmatched result. */
  raw: Record<string, string>;
}

/** A number for an OBX-3 code the study does not know: it waits among the unmatched results. */
export interface UnknownAnalyteResult {
  probeCode: string;
  /** OBX-3's code as sent (decoded). */
  code: string;
  value: number | null;
  unit: string;
  rangeText: string | null;
  dateOfAnalysis: string | null;
  patientSex: 'M' | 'K' | null;
  patientBirthDate: string | null;
  patientSurname: string | null;
  patientFirstname: string | null;
  raw: Record<string, string>;
}

/** The laboratory's comments of one sample: on the sample, and per analyte. */
export interface SampleComments {
  sample: string[];
  results: Map<LabAnalyte, string[]>;
}

export interface ParsedOru {
  /** MSH-10 as sent (raw ER7, not trimmed): echoed in MSA-2 and the key of a repeated delivery. */
  controlId: string;
  sendingFacility: string | null;
  results: ParsedResult[];
  unknown: UnknownAnalyteResult[];
  /** By sample code (OBR-3). */
  comments: Map<string, SampleComments>;
}

export type ParseOutcome =
  | { ok: true; header: AckHeader; oru: ParsedOru }
  | {
      ok: false;
      /** What the ACK echoes; UNKNOWN_HEADER's defaults where MSH could not be read. */
      header: AckHeader;
      controlId: string | null;
      /** AR for an unsupported message type, event, processing id or version; else AE. */
      ackCode: 'AE' | 'AR';
      error: AckError;
      reason: string;
      /** Every sample the message names, as far as it could be read. */
      probeCodes: string[];
    };

export interface ParseOptions {
  /** Now, for the check that no date lies in the future (tests pass their own). */
  now?: Date;
  /** Decodes \Xhh\ escapes in the message's charset. */
  decodeBytes?: (bytes: Buffer) => string;
}

/**
 * OBX-3 code for "hours since the last dose" (unit `h`): it applies to the drug concentrations
 * of its own OBR (our convention with the laboratory, documented in ADR 032).
 */
export const HOURS_CODE = 'HSLD';

/** How far ahead of our clock a laboratory's timestamp may be (clock skew; ADR 033). */
export const CLOCK_SKEW_MS = 10 * 60 * 1000;

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
 * Fields each segment may have (more is a malformed message) and must reach (the fields this
 * mapping reads). Maxima are v2.5.1's, with room for the fields later versions added. Other
 * segments (SFT, PV1, ORC, SPM, …) are allowed and ignored.
 */
const FIELD_COUNTS: Record<string, { min: number; max: number }> = {
  MSH: { min: 12, max: 25 },
  PID: { min: 3, max: 39 },
  OBR: { min: 3, max: 55 },
  OBX: { min: 2, max: 30 },
  NTE: { min: 1, max: 8 },
};

/** A finite number ≥ 0 written plainly ("12", "0.8", "1,2", ".5"); exponents and signs refuse. */
const NUMBER = /^(?:[0-9]{1,12}(?:[.,][0-9]{1,12})?|[.,][0-9]{1,12})$/;
/** A number with a comparator as text ("<0,5", "> 1000", "<= 3"): ST and lenient NM. */
const QUALIFIED = /^(<=|>=|<|>)\s*([0-9.,]+)$/;

/** Value types carrying text (comments): their value is kept as a comment. */
const TEXT_TYPES = new Set(['TX', 'FT', 'ST', 'CE', 'CWE', 'CF']);
/** Value types with nothing to read here (an encapsulated report, a reference): passed over. */
const IGNORED_TYPES = new Set(['ED', 'RP']);

// MLLP's start block (VT) and end block (FS CR): control characters are the point here.
// eslint-disable-next-line no-control-regex
const MLLP_START = /^\u000b/;
// eslint-disable-next-line no-control-regex
const MLLP_END = /\u001c\r?$/;

class Refusal extends Error {
  /** The sample and analyte it concerns, added on the way out (mapOru, mapObservation). */
  readonly params: LabErrorParams = {};

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly location: ErrorLocation | undefined,
    readonly labCode: LabErrorCode,
  ) {
    super(message);
  }
}

const refuse = (
  code: ErrorCode,
  reason: string,
  location: ErrorLocation | undefined,
  labCode: LabErrorCode,
): never => {
  throw new Refusal(code, reason, location, labCode);
};

/** Adds what a refusal concerns, keeping what an inner step already named. */
function naming(error: unknown, params: LabErrorParams): unknown {
  if (error instanceof Refusal) {
    for (const [key, value] of Object.entries(params) as [keyof LabErrorParams, string][]) {
      if (value && error.params[key] === undefined) error.params[key] = value;
    }
  }
  return error;
}

/** The samples (OBR-3, else OBR-2) a message names, as far as it can be read. */
function probeCodesOf(segments: readonly Er7Segment[], separators: Separators): string[] {
  const codes = new Set<string>();
  for (const segment of segments) {
    if (segment.name !== 'OBR') continue;
    const component = (index: number) =>
      unescapeHl7(segment.component(index, 1), separators).trim();
    const code = component(3) || component(2);
    if (code !== '' && code.length <= 64) codes.add(code);
  }
  return [...codes].slice(0, 1000);
}

/** Parses and maps one ER7 message (already decoded from its bytes). */
export function parseOru(
  text: string,
  medicines: readonly MedicineCode[],
  options: ParseOptions = {},
): ParseOutcome {
  // MLLP framing (VT … FS CR) sometimes survives a bridge to HTTP.
  const er7 = text
    .replace(MLLP_START, '')
    .replace(MLLP_END, '')
    .replace(/^[\r\n]+|[\r\n]+$/g, '');
  let probeCodes: string[] = [];
  const refused = (
    header: AckHeader,
    code: ErrorCode,
    reason: string,
    location: ErrorLocation | undefined,
    labCode: LabErrorCode,
    params: LabErrorParams = {},
    ackCode: 'AE' | 'AR' = 'AE',
  ): ParseOutcome => ({
    ok: false,
    header,
    controlId: header.controlId || null,
    ackCode,
    error: {
      code,
      text: reason,
      location,
      reason: {
        code: labCode,
        params: {
          ...params,
          ...(location?.field ? { field: `${location.segment}-${location.field}` } : {}),
        },
      },
    },
    reason,
    probeCodes,
  });
  const separators = separatorsOf(er7);
  if (!separators) {
    return refused(UNKNOWN_HEADER, 100, 'unparsable message', undefined, 'malformed_message');
  }
  const segments = splitEr7(er7, separators);
  const msh = segments[0];
  if (!msh || msh.name !== 'MSH') {
    return refused(UNKNOWN_HEADER, 100, 'unparsable message', undefined, 'malformed_message');
  }
  probeCodes = probeCodesOf(segments, separators);
  const header = headerOf(msh, separators);
  // NUL cannot be stored in PostgreSQL text; other controls have no place in ER7 either.
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(er7)) {
    return refused(
      header,
      102,
      'control characters in the message',
      undefined,
      'malformed_message',
    );
  }
  const mshFields = msh.fieldCount;
  if (mshFields < FIELD_COUNTS.MSH!.min || mshFields > FIELD_COUNTS.MSH!.max) {
    return refused(
      header,
      102,
      `MSH (segment 1): wrong field count ${mshFields}`,
      { segment: 'MSH', sequence: 1 },
      'malformed_message',
    );
  }
  const unsupported = unsupportedHeader(msh);
  if (unsupported) {
    return refused(
      header,
      unsupported.code,
      unsupported.reason,
      unsupported.location,
      unsupported.code === 202 ? 'not_production' : 'unsupported_message',
      {},
      'AR',
    );
  }
  try {
    const context = new Context(separators, options);
    return { ok: true, header, oru: mapOru(segments, medicines, context) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refused(header, error.code, error.message, error.location, error.labCode, error.params);
  }
}

/** MSH-3..6, 9, 10, 11, 12 as the ACK needs them; raw ER7 (the ACK uses the same separators). */
function headerOf(msh: Er7Segment, separators: Separators): AckHeader {
  const raw = (index: number) => msh.field(index);
  return {
    separators,
    sendingApplication: raw(3),
    sendingFacility: raw(4),
    receivingApplication: raw(5),
    receivingFacility: raw(6),
    controlId: raw(10),
    trigger: msh.component(9, 2).trim(),
    processingId: msh.component(11, 1).trim(),
    version: msh.component(12, 1).trim(),
  };
}

/** MSH-9, 11 and 12 this connector does not take (answered AR). */
function unsupportedHeader(
  msh: Er7Segment,
): { code: ErrorCode; reason: string; location: ErrorLocation } | null {
  const at = (field: number, component?: number): ErrorLocation => ({
    segment: 'MSH',
    sequence: 1,
    field,
    ...(component === undefined ? {} : { component }),
  });
  const type = msh.component(9, 1).trim();
  if (type !== 'ORU') return { code: 200, reason: 'MSH-9: not ORU', location: at(9, 1) };
  if (msh.component(9, 2).trim() !== 'R01') {
    return { code: 201, reason: 'MSH-9: not R01', location: at(9, 2) };
  }
  const version = msh.component(12, 1).trim();
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
    return { code: 203, reason: 'MSH-12: unsupported version', location: at(12) };
  }
  // P only: a test (T) or debugging (D) message must not write results on real samples.
  if (msh.component(11, 1).trim() !== 'P') {
    return { code: 202, reason: 'MSH-11: processing id must be P', location: at(11) };
  }
  return null;
}

/** What decoding and the checks of one message need. */
class Context {
  readonly now: number;
  /** Sequence of each segment among those of its name, for ERR-2. */
  private readonly sequences = new Map<string, number>();

  constructor(
    readonly separators: Separators,
    private readonly options: ParseOptions,
  ) {
    this.now = (options.now ?? new Date()).getTime();
  }

  decode(text: string): string {
    return unescapeHl7(text, this.separators, this.options.decodeBytes);
  }

  /** Next sequence number of a segment name. */
  count(name: string): number {
    const next = (this.sequences.get(name) ?? 0) + 1;
    this.sequences.set(name, next);
    return next;
  }

  /** A component of a field, decoded and trimmed. */
  component(segment: Er7Segment, index: number, component = 1): string {
    return this.decode(segment.component(index, component)).trim();
  }

  /** A whole field (every component and repetition) as display text, decoded and trimmed. */
  text(segment: Er7Segment, index: number): string {
    return this.fieldText(segment.repetitions(index));
  }

  fieldText(repetitions: string[][]): string {
    const s = this.separators;
    return repetitions
      .map((components) =>
        components
          .map((component) =>
            component
              .split(s.subcomponent)
              .map((part) => this.decode(part))
              .join(s.subcomponent),
          )
          .join(s.component),
      )
      .join(s.repetition)
      .trim();
  }
}

/** PID as the laboratory sent it: what a result carries of its patient. */
interface SentPatient {
  sex: 'M' | 'K' | null;
  birthDate: string | null;
  surname: string | null;
  firstname: string | null;
  raw: Record<string, string>;
}

interface Order {
  code: string;
  sequence: number;
  date: string | null;
  hours: number | null;
  results: ParsedResult[];
  unknown: UnknownAnalyteResult[];
}

function mapOru(
  segments: readonly Er7Segment[],
  medicines: readonly MedicineCode[],
  context: Context,
): ParsedOru {
  const msh = segments[0] as Er7Segment;
  const controlId = msh.field(10);
  if (controlId.trim() === '') {
    refuse(
      101,
      'MSH-10: control id missing',
      { segment: 'MSH', sequence: 1, field: 10 },
      'control_id_missing',
    );
  }
  if (controlId.length > 199) {
    refuse(
      102,
      'MSH-10: control id too long',
      { segment: 'MSH', sequence: 1, field: 10 },
      'malformed_message',
    );
  }
  const sendingFacility = context.component(msh, 4) || null;
  const byCode = medicineIdsByCode(medicines);

  let patient: SentPatient = {
    sex: null,
    birthDate: null,
    surname: null,
    firstname: null,
    raw: {},
  };
  let order: Order | null = null;
  /** Where an NTE's comment goes: the sample, or the analyte of the OBX it follows. */
  let noteTarget: { code: string; analyte: LabAnalyte | null } | null = null;
  const results: ParsedResult[] = [];
  const unknown: UnknownAnalyteResult[] = [];
  const comments = new Map<string, SampleComments>();
  const seen = new Set<string>();
  let observations = 0;
  const commentsOf = (code: string): SampleComments => {
    let found = comments.get(code);
    if (!found) {
      found = { sample: [], results: new Map() };
      comments.set(code, found);
    }
    return found;
  };
  const addComment = (code: string, analyte: LabAnalyte | null, text: string) => {
    if (text === '') return;
    const target = commentsOf(code);
    if (analyte === null) target.sample.push(text);
    else target.results.set(analyte, [...(target.results.get(analyte) ?? []), text]);
  };
  const closeOrder = () => {
    if (!order) return;
    for (const result of order.results) result.hours = order.hours;
    results.push(...order.results);
    unknown.push(...order.unknown);
    order = null;
  };

  segments.forEach((segment, index) => {
    const sequence = context.count(segment.name);
    const where: ErrorLocation = { segment: segment.name, sequence };
    if (!/^[A-Z][A-Z0-9]{2}$/.test(segment.name)) {
      refuse(100, `segment ${index + 1}: unknown name`, undefined, 'malformed_message');
    }
    if (index > 0 && segment.name === 'MSH') {
      refuse(100, `segment ${index + 1}: second MSH`, where, 'malformed_message');
    }
    const counts = FIELD_COUNTS[segment.name];
    const count = segment.fieldCount;
    if (counts && (count < counts.min || count > counts.max)) {
      refuse(
        102,
        `${segment.name} (segment ${index + 1}): wrong field count ${count}`,
        where,
        'malformed_message',
      );
    }
    if (index === 0) return;
    if (segment.name === 'PID') {
      closeOrder();
      noteTarget = null;
      patient = mapPatient(segment, context, sequence);
    } else if (segment.name === 'OBR') {
      closeOrder();
      // OBR-3, the filler order number, carries the sample's code; OBR-2 (placer) if empty.
      const code = context.component(segment, 3) || context.component(segment, 2);
      if (code === '') {
        refuse(
          101,
          'OBR-3: filler order number (sample code) missing',
          { ...where, field: 3 },
          'probe_code_missing',
        );
      }
      if (code.length > 64) {
        refuse(102, 'OBR-3: sample code too long', { ...where, field: 3 }, 'probe_code_too_long');
      }
      const observed = context.component(segment, 7);
      let date: string | null;
      try {
        if (observed) notInFuture(observed, context, `OBR-7`, { ...where, field: 7 });
        date = observed ? hl7Date(observed, 'OBR-7', { ...where, field: 7 }) : null;
      } catch (error) {
        throw naming(error, { probe_code: code });
      }
      order = { code, sequence, date, hours: null, results: [], unknown: [] };
      noteTarget = { code, analyte: null };
    } else if (segment.name === 'NTE') {
      // NTE-3 (FT, repeating) after an OBR is the sample's comment, after an OBX the result's;
      // after MSH or PID it is about the message or the patient, not a result: passed over.
      if (noteTarget) addComment(noteTarget.code, noteTarget.analyte, noteText(segment, context));
    } else if (segment.name === 'OBX') {
      const current = order;
      if (!current) return refuse(100, 'OBX before OBR', where, 'malformed_message');
      observations += 1;
      let observation: Observation;
      try {
        observation = mapObservation(segment, sequence, current, context, byCode, patient);
      } catch (error) {
        // The refusal names the sample and the analyte (ours, else the laboratory's code).
        const obx3 = context.component(segment, 3, 1).toUpperCase().slice(0, 100);
        const analyte =
          obx3 === HOURS_CODE ? 'hours' : obx3 === '' ? '' : (analyteOf(obx3, byCode) ?? obx3);
        throw naming(error, { probe_code: current.code, analyte });
      }
      // An NTE after an OBX is that result's comment (the sample's for a test we do not know).
      noteTarget = {
        code: current.code,
        analyte:
          observation.kind === 'result'
            ? observation.result.analyte
            : observation.kind === 'comment' || observation.kind === 'none'
              ? observation.analyte
              : null,
      };
      if (observation.kind === 'hours') {
        current.hours = observation.hours;
      } else if (observation.kind === 'result') {
        const key = `${current.code}\u0000${observation.result.analyte}`;
        if (seen.has(key)) {
          throw naming(
            new Refusal(
              207,
              `OBX ${observation.setId}: analyte repeated for one sample`,
              { ...where, field: 3 },
              'analyte_repeated',
            ),
            { probe_code: current.code, analyte: observation.result.analyte },
          );
        }
        seen.add(key);
        current.results.push(observation.result);
      } else if (observation.kind === 'unknown') {
        current.unknown.push(observation.result);
      } else if (observation.kind === 'comment') {
        addComment(current.code, observation.analyte, observation.text);
      }
    }
  });
  closeOrder();
  if (observations === 0) refuse(101, 'no results (OBX) in the message', undefined, 'no_results');
  return { controlId, sendingFacility, results, unknown, comments };
}

type Observation =
  | { kind: 'hours'; hours: number }
  | { kind: 'result'; setId: string; result: ParsedResult }
  | { kind: 'unknown'; result: UnknownAnalyteResult }
  | { kind: 'comment'; analyte: LabAnalyte | null; text: string }
  | { kind: 'none'; analyte: LabAnalyte | null };

function mapObservation(
  segment: Er7Segment,
  sequence: number,
  order: Order,
  context: Context,
  byCode: Map<string, number>,
  patient: SentPatient,
): Observation {
  const setId = context.component(segment, 1) || String(sequence);
  const where = `OBX ${setId}`;
  const at = (field: number): ErrorLocation => ({ segment: 'OBX', sequence, field });
  const code = context.component(segment, 3, 1).toUpperCase();
  const name = context.component(segment, 3, 2);
  const valueType = context.component(segment, 2).toUpperCase();
  const valueField = segment.repetitions(5);
  const unitText = context.component(segment, 6);
  const analyte = code === '' ? null : analyteOf(code, byCode);
  if (IGNORED_TYPES.has(valueType)) return { kind: 'none', analyte };

  // Text, read as a number where it is one (ST "0,8" or "<0,5").
  const rawValue = segment.field(5);
  const valueText = valueType === 'SN' ? '' : context.decode(rawValue).trim();
  if (TEXT_TYPES.has(valueType)) {
    const numeric = valueType === 'ST' && (NUMBER.test(valueText) || QUALIFIED.test(valueText));
    if (!numeric) {
      const text = observationText(valueField, valueType, context);
      if (analyte) return { kind: 'comment', analyte, text };
      // Not an analyte of ours: the sample's comment, introduced by its name.
      // A name of punctuation only ("." in some laboratories' canned comments) is no label.
      const label = [name, code].find((part) => /[\p{L}\p{N}]/u.test(part)) ?? '';
      return { kind: 'comment', analyte: null, text: text && label ? `${label}: ${text}` : text };
    }
  } else if (valueType !== '' && valueType !== 'NM' && valueType !== 'SN') {
    refuse(
      102,
      `${where}: OBX-2 value type ${valueType.slice(0, 3)} not supported`,
      at(2),
      'value_type_unsupported',
    );
  }

  const observed = context.component(segment, 14);
  if (observed) notInFuture(observed, context, `${where}: OBX-14`, at(14));
  const dateOfAnalysis = observed ? hl7Date(observed, `${where}: OBX-14`, at(14)) : order.date;

  if (code === '') return refuse(101, `${where}: OBX-3 missing`, at(3), 'analyte_missing');
  // An observation the laboratory could not make: nothing to store, its NTE may say why.
  const status = context.component(segment, 11).toUpperCase();
  if (rawValue.trim() === '' && (status === 'X' || status === 'D' || status === 'I')) {
    return { kind: 'none', analyte };
  }

  if (code === HOURS_CODE) {
    if (unitText.toLowerCase() !== 'h') {
      refuse(103, `${where}: OBX-6 unit must be h`, at(6), 'wrong_unit');
    }
    const hours = readValue(segment, valueType, valueText, context, where, at(5));
    if (hours.comparator) refuse(102, `${where}: OBX-5 not a number`, at(5), 'not_a_number');
    return {
      kind: 'hours',
      hours: plausible(hours.value, RESULT_PLAUSIBLE_MAX.hours, where, at(5)),
    };
  }
  const rangeText = context.text(segment, 7);
  const raw = {
    ...patient.raw,
    'OBR-3': order.code,
    'OBX-2': valueType,
    'OBX-3': context.text(segment, 3),
    'OBX-5': context.fieldText(valueField),
    'OBX-6': context.text(segment, 6),
    'OBX-7': rangeText,
    'OBX-14': observed,
  };
  if (!analyte) {
    // An unknown analyte waits by itself among the unmatched results; the rest is stored.
    let value: number | null = null;
    try {
      value = readValue(segment, valueType, valueText, context, where, at(5)).value;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
    }
    return {
      kind: 'unknown',
      result: {
        probeCode: order.code,
        code: code.slice(0, 100),
        value: value !== null && Number.isFinite(value) && value < 1e12 ? value : null,
        unit: unitText.slice(0, 50),
        rangeText: rangeText ? rangeText.slice(0, 100) : null,
        dateOfAnalysis,
        patientSex: patient.sex,
        patientBirthDate: patient.birthDate,
        patientSurname: patient.surname,
        patientFirstname: patient.firstname,
        raw,
      },
    };
  }
  const kind = kindOf(analyte);
  const max = kind === 'drug' ? RESULT_PLAUSIBLE_MAX.concentration : plausibleMax(analyte);
  const read = readValue(segment, valueType, valueText, context, where, at(5));
  const value = plausible(read.value, max, where, at(5));
  if (read.comparator?.upper !== undefined && read.comparator.upper !== null) {
    plausible(read.comparator.upper, max, where, at(5));
  }
  const units = UNITS[kind];
  if (!units.accepted.includes(unitText.toLowerCase())) {
    refuse(103, `${where}: OBX-6 wrong unit`, at(6), 'wrong_unit');
  }
  return {
    kind: 'result',
    setId,
    result: {
      probeCode: order.code,
      analyte,
      value,
      comparator: read.comparator,
      unit: units.canonical,
      labRange: rangeText ? labRange(rangeText, units.canonical) : null,
      dateOfAnalysis,
      hours: null,
      patientSex: patient.sex,
      patientBirthDate: patient.birthDate,
      patientSurname: patient.surname,
      patientFirstname: patient.firstname,
      raw,
    },
  };
}

/**
 * OBX-5 as a number with its comparator: NM (a plain number; "<0.5" is read too, as laboratories
 * write it), SN (`<^0.5`, `>^1000`, `^182`, `^10^-^20`) or ST that reads as a number.
 */
function readValue(
  segment: Er7Segment,
  valueType: string,
  valueText: string,
  context: Context,
  where: string,
  at: ErrorLocation,
): { value: number; comparator: ResultComparator | null } {
  if (valueType === 'SN') {
    const comparator = context.component(segment, 5, 1);
    const first = context.component(segment, 5, 2);
    const separator = context.component(segment, 5, 3);
    const second = context.component(segment, 5, 4);
    const value = numberOf(first, where, at);
    if (separator === '' && second === '') {
      if (comparator === '' || comparator === '=') return { value, comparator: null };
      if (comparator === '<' || comparator === '>' || comparator === '<=' || comparator === '>=') {
        return { value, comparator: { comparator, upper: null } };
      }
      return refuse(102, `${where}: OBX-5 comparator not supported`, at, 'value_unsupported');
    }
    // A range `^10^-^20`; ratios (`^1^:^128`) and sums have no place among these analytes.
    if (separator === '-' && (comparator === '' || comparator === '=')) {
      const upper = numberOf(second, where, at);
      if (upper < value) refuse(102, `${where}: OBX-5 range reversed`, at, 'value_unsupported');
      return upper === value
        ? { value, comparator: null }
        : { value, comparator: { comparator: '-', upper } };
    }
    return refuse(102, `${where}: OBX-5 structured number not supported`, at, 'value_unsupported');
  }
  const qualified = QUALIFIED.exec(valueText);
  if (qualified) {
    const comparator = qualified[1] as '<' | '<=' | '>' | '>=';
    return {
      value: numberOf(qualified[2] ?? '', where, at),
      comparator: { comparator, upper: null },
    };
  }
  return { value: numberOf(valueText, where, at), comparator: null };
}

function numberOf(text: string, where: string, at: ErrorLocation): number {
  if (!NUMBER.test(text)) return refuse(102, `${where}: OBX-5 not a number`, at, 'not_a_number');
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value)) {
    return refuse(102, `${where}: OBX-5 not a number`, at, 'not_a_number');
  }
  return value;
}

/** OBX-5 of a text type as display text: CE/CWE its text (else code), TX/FT lines. */
function observationText(field: string[][], valueType: string, context: Context): string {
  if (valueType === 'CE' || valueType === 'CWE') {
    return field
      .map((components) => {
        const text = context.decode(components[1] ?? '').trim();
        return text || context.decode(components[0] ?? '').trim();
      })
      .filter((line) => line !== '')
      .join('\n');
  }
  // TX, FT, ST: each repetition a line; a component separator inside is literal text.
  return field
    .map((components) =>
      components
        .map((part) => context.decode(part))
        .join(' ')
        .trimEnd(),
    )
    .join('\n')
    .trim();
}

/** NTE-3 (FT, repeating): the lines of a note. */
function noteText(segment: Er7Segment, context: Context): string {
  return observationText(segment.repetitions(3), 'FT', context);
}

function mapPatient(segment: Er7Segment, context: Context, sequence: number) {
  const sexText = context.component(segment, 8).toUpperCase();
  const sex: 'M' | 'K' | null = sexText === 'M' ? 'M' : sexText === 'F' ? 'K' : null;
  if (!['', 'M', 'F', 'U', 'O', 'A', 'N'].includes(sexText)) {
    refuse(103, 'PID-8: unknown sex', { segment: 'PID', sequence, field: 8 }, 'unknown_sex');
  }
  // An unreadable birth date (seen in public examples: "196203520") is not compared, as a blank
  // one: the patient check then rests on the sex and the sample's code (ADR 033).
  const birth = context.component(segment, 7);
  let birthDate: string | null = null;
  if (birth) {
    try {
      birthDate = hl7Date(birth, 'PID-7');
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
    }
  }
  // PID-5 (XPN): the family name (its first subcomponent, FN's surname) and the given name,
  // kept to be shown beside the sample's patient when a result is matched by hand.
  const name = (component: number) =>
    context
      .decode(segment.component(5, component).split(context.separators.subcomponent)[0] ?? '')
      .trim()
      .slice(0, 200) || null;
  return {
    sex,
    birthDate,
    surname: name(1),
    firstname: name(2),
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

/** A value from 0 to the plausible maximum; beyond it the message is refused. */
function plausible(value: number, max: number, where: string, at: ErrorLocation): number {
  if (!Number.isFinite(value) || value < 0 || value > max) {
    refuse(102, `${where}: OBX-5 out of the plausible range`, at, 'implausible_value');
  }
  return value;
}

const TIMESTAMP =
  /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:\.(\d{1,4}))?)?)?)?([+-]\d{4})?$/;

/**
 * The earliest instant an HL7 TS/DTM may denote (a day: its midnight), in milliseconds; a
 * value without an offset is Warsaw's wall clock (our laboratory's). Null when unreadable.
 */
export function hl7Instant(text: string): number | null {
  const match = TIMESTAMP.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour ?? 0),
    Number(minute ?? 0),
    Number(second ?? 0),
    Math.floor(Number(`0.${fraction ?? '0'}`) * 1000),
  );
  if (Number.isNaN(wall)) return null;
  if (zone) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const offset = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5))) * 60_000;
    return wall - offset;
  }
  // Warsaw is UTC+1 or UTC+2: take the smaller offset, the later instant (no false refusal).
  return wall - 60 * 60_000;
}

/** A laboratory's timestamp further ahead of our clock than the skew allows refuses the message. */
function notInFuture(text: string, context: Context, where: string, at: ErrorLocation): void {
  const instant = hl7Instant(text);
  if (instant !== null && instant > context.now + CLOCK_SKEW_MS) {
    refuse(102, `${where}: in the future`, at, 'date_in_future');
  }
}

/** An HL7 TS (YYYYMMDD[HH[MM[SS[.S]]]][±ZZZZ]) → its calendar day YYYY-MM-DD, as written. */
export function hl7Date(text: string, where: string, at?: ErrorLocation): string {
  const match = TIMESTAMP.exec(text);
  if (!match) return refuse(102, `${where}: not a date`, at, 'invalid_date');
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (
    date.getUTCFullYear() !== Number(year) ||
    date.getUTCMonth() !== Number(month) - 1 ||
    date.getUTCDate() !== Number(day) ||
    Number(year) < 1900 ||
    Number(hour ?? 0) > 23 ||
    Number(minute ?? 0) > 59 ||
    Number(second ?? 0) > 59
  ) {
    refuse(102, `${where}: not a date`, at, 'invalid_date');
  }
  return `${year}-${month}-${day}`;
}

/**
 * OBX-7, the laboratory's reference range as laboratories write it: "10-40", "0,3 - 1,2",
 * "70_105", "3.5 – 5.1", "<1.2", "(<1.0)", "<=1.2", ">5", "[10;40]". Text it cannot read is kept
 * as text without bounds (the study's range then applies).
 */
export function labRange(text: string, unit: string): LabRange | null {
  const kept = text.slice(0, 100);
  // Brackets and a unit written after the numbers do not change the bounds.
  const plain = kept.trim().replace(BRACKETS, '$1').replace(TRAILING_UNIT, '').trim();
  const toNumber = (value: string) => Number(value.replace(',', '.'));
  const between = RANGE_BETWEEN.exec(plain);
  if (between) {
    const min = toNumber(between[1] ?? '');
    const max = toNumber(between[2] ?? '');
    return min <= max ? { text: kept, min, max, unit } : { text: kept, min: null, max: null, unit };
  }
  // "<1.2" is a "<" limit (the value must stay below it), told by its text: see fromLaboratory.
  const below = RANGE_BELOW.exec(plain);
  if (below) return { text: kept, min: null, max: toNumber(below[2] ?? ''), unit };
  const above = RANGE_ABOVE.exec(plain);
  if (above) return { text: kept, min: toNumber(above[2] ?? ''), max: null, unit };
  return { text: kept, min: null, max: null, unit };
}

const RANGE_NUMBER = '([0-9]+(?:[.,][0-9]+)?)';
const BRACKETS = /^[([{]\s*(.*?)\s*[)\]}]$/;
const TRAILING_UNIT = /\s*[a-zA-Zµμ/%]+[a-zA-Z0-9µμ/%.]*$/;
const RANGE_BETWEEN = new RegExp(`^${RANGE_NUMBER}\\s*(?:-|–|—|_|;|\\.\\.)\\s*${RANGE_NUMBER}$`);
const RANGE_BELOW = new RegExp(`^(<=?|≤)\\s*${RANGE_NUMBER}$`);
const RANGE_ABOVE = new RegExp(`^(>=?|≥)\\s*${RANGE_NUMBER}$`);
