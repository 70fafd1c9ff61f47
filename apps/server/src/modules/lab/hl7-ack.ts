import { randomBytes } from 'node:crypto';
import type { LabErrorCode, LabErrorParams } from '@portal/shared';
import { STANDARD_SEPARATORS, composite, encodeIn, escapeHl7, msh18Of } from './hl7-er7.js';
import type { Charset, Separators } from './hl7-er7.js';

/**
 * The ACK of an ORU^R01 as HL7 v2.5 lays it out (ADR 033): MSH written with the received
 * message's own separators, sending and receiving application and facility swapped, MSH-7 with
 * milliseconds and Warsaw's offset, MSH-9 `ACK^R01^ACK`, a new MSH-10; MSA-2 the received
 * MSH-10 exactly as it was sent; for AE and AR an ERR segment with an HL7 table 0357 code.
 */

export type AckCode = 'AA' | 'AE' | 'AR';

/** HL7 table 0357, the codes this connector answers with. */
export const ERROR_CODES = {
  100: 'Segment sequence error',
  101: 'Required field missing',
  102: 'Data type error',
  103: 'Table value not found',
  200: 'Unsupported message type',
  201: 'Unsupported event code',
  202: 'Unsupported processing id',
  203: 'Unsupported version id',
  207: 'Application internal error',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** ERR-2 (ERL): segment id, its sequence in the message, field, component. */
export interface ErrorLocation {
  segment: string;
  /** 1-based position of the segment among those of its name. */
  sequence: number;
  field?: number;
  component?: number;
}

export interface AckError {
  code: ErrorCode;
  /** ERR-8 (and MSA-3): short, names segments and fields only, never patient data. */
  text: string;
  location?: ErrorLocation | undefined;
  /**
   * The same refusal for the portal's users (ADR 032): a code and the sample and analyte it
   * concerns, said in their language by the web. Never in the ACK.
   */
  reason?: LabReason | undefined;
}

/** A refusal as the portal stores and shows it. */
export interface LabReason {
  code: LabErrorCode;
  params: LabErrorParams;
}

/** What the ACK echoes of the received message; every field as received (still escaped). */
export interface AckHeader {
  separators: Separators;
  /** MSH-3..6 as received (raw ER7 of the field, already escaped for `separators`). */
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  /** MSH-10 as received (raw), echoed in MSA-2. */
  controlId: string;
  /** MSH-9.2 as received; R01 when unknown. */
  trigger: string;
  /** MSH-11 processing id (component 1), echoed when supported. */
  processingId: string;
  /** MSH-12 version (component 1), echoed when supported. */
  version: string;
}

export const UNKNOWN_HEADER: AckHeader = {
  separators: STANDARD_SEPARATORS,
  sendingApplication: '',
  sendingFacility: '',
  receivingApplication: '',
  receivingFacility: '',
  controlId: '',
  trigger: 'R01',
  processingId: 'P',
  version: '2.5',
};

/** Our own application name in MSH-3 when the message named no receiving application. */
const PORTAL_APPLICATION = 'PORTAL';

const offsetFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Warsaw',
  timeZoneName: 'longOffset',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An instant as HL7 DTM in Warsaw: YYYYMMDDHHMMSS.SSS+ZZZZ (milliseconds zero-padded). */
export function hl7Timestamp(instant: Date = new Date()): string {
  const parts: Record<string, string> = {};
  for (const part of offsetFormat.formatToParts(instant)) parts[part.type] = part.value;
  // "GMT+01:00" (or "GMT" at offset zero, which Warsaw never has, kept correct anyway).
  const offset = /GMT([+-])(\d{2}):(\d{2})/.exec(parts.timeZoneName ?? '');
  const zone = offset ? `${offset[1]}${offset[2]}${offset[3]}` : '+0000';
  const ms = String(instant.getMilliseconds()).padStart(3, '0');
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}.${ms}${zone}`;
}

/** A new message control id: 20 characters (MSH-10's length in v2.5). */
export function newControlId(): string {
  return `ACK${randomBytes(9).toString('hex').slice(0, 17).toUpperCase()}`;
}

/** Supported version ids are echoed; anything else is answered as 2.5. */
export const SUPPORTED_VERSIONS = ['2.3', '2.3.1', '2.4', '2.5', '2.5.1'] as const;

/** The ACK as ER7 text, segments separated by CR. */
export function buildAck(
  header: AckHeader,
  code: AckCode,
  error: AckError | null,
  options: { charset?: Charset | null; now?: Date; controlId?: string } = {},
): string {
  const s = header.separators;
  const version = (SUPPORTED_VERSIONS as readonly string[]).includes(header.version)
    ? header.version
    : '2.5';
  const processingId = ['P', 'D', 'T'].includes(header.processingId) ? header.processingId : 'P';
  const trigger = /^[A-Z0-9]{3}$/.test(header.trigger) ? header.trigger : 'R01';
  const msh = [
    'MSH',
    // MSH-2: the encoding characters, as the message declared them.
    `${s.component}${s.repetition}${s.escape}${s.subcomponent}`,
    header.receivingApplication || PORTAL_APPLICATION,
    header.receivingFacility,
    header.sendingApplication,
    header.sendingFacility,
    hl7Timestamp(options.now),
    '',
    ['ACK', trigger, 'ACK'].join(s.component),
    options.controlId ?? newControlId(),
    processingId,
    version,
    '',
    '',
    '',
    '',
    '',
    options.charset ? escapeHl7(msh18Of(options.charset), s) : '',
  ];
  // No empty fields at the end of a segment.
  while (msh.length > 12 && msh[msh.length - 1] === '') msh.pop();
  const segments = [
    // MSH-1 is the separator itself: the first field joins without one more.
    `MSH${s.field}${msh.slice(1).join(s.field)}`,
    [
      'MSA',
      code,
      header.controlId,
      // MSA-3 is kept for backward compatibility (v2.5 retains it); ERR-8 says the same.
      code === 'AA' ? 'OK' : escapeHl7(error?.text ?? 'Application Error', s),
    ].join(s.field),
  ];
  if (code !== 'AA') {
    const failure = error ?? { code: 207 as const, text: 'Application Error' };
    segments.push(errSegment(failure, s));
  }
  return `${segments.join('\r')}\r`;
}

function errSegment(error: AckError, s: Separators): string {
  const location = error.location
    ? [
        error.location.segment,
        String(error.location.sequence),
        error.location.field === undefined ? '' : String(error.location.field),
        error.location.component === undefined ? '' : String(error.location.component),
      ]
        .join(s.component)
        .replace(new RegExp(`(${escapeRegExp(s.component)})+$`), '')
    : '';
  return [
    'ERR',
    // ERR-1 is kept empty (deprecated in v2.5); ERR-2 the location.
    '',
    location,
    composite([String(error.code), ERROR_CODES[error.code], 'HL70357'], s),
    // ERR-4 severity: an error.
    'E',
    '',
    '',
    '',
    escapeHl7(error.text, s),
  ].join(s.field);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ACK's bytes and its Content-Type, in the charset we answer in. */
export function ackBytes(ack: string, charset: Charset): { bytes: Buffer; contentType: string } {
  return {
    bytes: encodeIn(ack, charset),
    contentType: `x-application/hl7-v2+er7; charset=${charset}`,
  };
}
