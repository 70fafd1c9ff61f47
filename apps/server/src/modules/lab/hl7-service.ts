import { createHash, timingSafeEqual } from 'node:crypto';
import { SYNEVO_LAST_ERROR } from '@portal/shared';
import type { LabErrorCode } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { inTransaction, markAuditSource } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { labMessages, medicines, probeMedicines, unmatchedResults } from '../../db/schema.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import { isStudyLocked } from '../../lib/study-lock.js';
import type { SecretBox } from '../../lib/secrets.js';
import { enqueueNotification } from '../notifications/index.js';
import { readSetting, readSynevoCredentials, recordSynevoError } from '../settings/index.js';
import { applyLabResultsMany, medicineIdOf } from '../results/index.js';
import type { IncomingComments, LabAnalyte, SampleResults } from '../results/index.js';
import { UNKNOWN_HEADER, ackBytes, buildAck } from './hl7-ack.js';
import type { AckCode, AckError, AckHeader, ErrorCode, LabReason } from './hl7-ack.js';
import { charsetOf, decodeStrict, separatorsOf } from './hl7-er7.js';
import type { Charset } from './hl7-er7.js';
import { parseOru } from './hl7-parse.js';
import type {
  MedicineCode,
  ParsedOru,
  ParsedResult,
  SampleComments,
  UnknownAnalyteResult,
} from './hl7-parse.js';
import { patientMismatch, samplesByCode } from './patient-check.js';
import type { PatientMismatch } from './patient-check.js';

/**
 * The laboratory's results connector (ADRs
 * 032 and 033). One message is stored all or nothing, in one short transaction with no acting
 * user (the audit trail shows the system); a rejected message is recorded outside it, so every
 * error is findable. The same accepted control id (MSH-10) again answers AA and changes nothing.
 * The transports (HTTP, MLLP) hand over the message's bytes; what happens inside never throws
 * for the message's content: it answers AE or AR with an ERR segment.
 */

export type { AckCode } from './hl7-ack.js';

export interface Hl7Outcome {
  code: AckCode;
  /** The ACK in ER7, to answer with. */
  ack: string;
  /** The ACK encoded in the charset we answer in (the message's own), and its Content-Type. */
  ackBytes: Buffer;
  ackContentType: string;
  /** Why the message was refused (segment and field names only); null when accepted. */
  reason: string | null;
  /** HL7 table 0357 code of the refusal; null when accepted. */
  errorCode: ErrorCode | null;
  /** True when the control id had already been accepted (nothing written). */
  duplicate: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * HTTP Basic against the `synevo` setting: both parts compared in constant time (as hashes, so
 * the lengths leak nothing). No stored password, or no key to unseal it, never authenticates.
 * Answers 'ok', 'unauthorized' or 'disabled' (credentials right, import switched off).
 */
export async function authenticateLab(
  db: Database,
  secrets: SecretBox | null,
  authorization: string | undefined,
): Promise<'ok' | 'unauthorized' | 'disabled'> {
  const match = /^Basic ([A-Za-z0-9+/=]{1,1000})$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1]) return 'unauthorized';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'unauthorized';
  const credentials = await readSynevoCredentials(db, secrets);
  if (!credentials.login || !credentials.password) return 'unauthorized';
  const loginOk = timingSafeEqual(sha256(decoded.slice(0, colon)), sha256(credentials.login));
  const passwordOk = timingSafeEqual(
    sha256(decoded.slice(colon + 1)),
    sha256(credentials.password),
  );
  if (!(loginOk && passwordOk)) return 'unauthorized';
  return credentials.enabled ? 'ok' : 'disabled';
}

/** The medicines a laboratory may name in OBX-3 (the connector's and the data import's). */
export function loadMedicineCodes(db: Database): Promise<MedicineCode[]> {
  return db.select({ id: medicines.id, inn: medicines.inn, cas: medicines.cas }).from(medicines);
}

/** What a message declares and the transport says about its bytes. */
interface Envelope {
  /** The charset the bytes were read in; null when they could not be read in any. */
  charset: Charset;
  /** True when MSH-18 or the transport named it: the ACK then names it too. */
  declared: boolean;
}

/**
 * The charset of a message's bytes (ADR 033): MSH-18 when present (the application that encoded
 * the message wrote it; HTTP clients often add `charset=utf-8` by default), else the transport's
 * (HTTP Content-Type charset), else UTF-8. Read from the MSH segment as latin1: every charset we
 * read is ASCII-compatible there.
 */
function envelopeOf(
  body: Buffer,
  transportCharset: string | null,
): { ok: true; envelope: Envelope } | { ok: false; error: AckError; fallback: Charset } {
  const head = body
    .subarray(0, 4096)
    .toString('latin1')
    // MLLP's start block (VT) sometimes survives a bridge to HTTP.
    // eslint-disable-next-line no-control-regex -- a control character is the point
    .replace(/^\u000b/, '');
  const separators = separatorsOf(head);
  const mshLine = head.split(/[\r\n]/)[0] ?? '';
  const msh18 = separators
    ? (mshLine.split(separators.field)[17] ?? '')
        .split(separators.repetition)[0]
        ?.split(separators.component)[0]
        ?.trim()
    : '';
  const transport = transportCharset?.trim().replace(/^"|"$/g, '') || null;
  if (msh18) {
    const charset = charsetOf(msh18);
    if (!charset) {
      return {
        ok: false,
        fallback: 'utf-8',
        error: {
          code: 103,
          text: 'MSH-18: character set not supported',
          location: { segment: 'MSH', sequence: 1, field: 18 },
          reason: { code: 'unsupported_charset', params: { field: 'MSH-18' } },
        },
      };
    }
    return { ok: true, envelope: { charset, declared: true } };
  }
  if (transport) {
    const charset = charsetOf(transport);
    if (!charset) {
      return {
        ok: false,
        fallback: 'utf-8',
        error: {
          code: 103,
          text: 'Content-Type: character set not supported',
          reason: { code: 'unsupported_charset', params: {} },
        },
      };
    }
    return { ok: true, envelope: { charset, declared: true } };
  }
  return { ok: true, envelope: { charset: 'utf-8', declared: false } };
}

/**
 * Receives one message as the transport delivered it (bytes, and the charset the transport
 * named, if any). Bytes not valid in the message's charset are refused (AE 102), never replaced.
 */
export async function receiveHl7Bytes(
  db: Database,
  body: Buffer,
  transportCharset: string | null,
): Promise<Hl7Outcome> {
  const envelope = envelopeOf(body, transportCharset);
  if (!envelope.ok) {
    return refuseUnread(db, body, envelope.fallback, 'AE', envelope.error);
  }
  const { charset } = envelope.envelope;
  let text: string;
  try {
    text = decodeStrict(body, charset);
  } catch {
    return refuseUnread(db, body, charset, 'AE', {
      code: 102,
      text: `bytes not valid in ${charset}`,
      location: { segment: 'MSH', sequence: 1, field: 18 },
      reason: { code: 'invalid_bytes', params: {} },
    });
  }
  return process(db, text, envelope.envelope);
}

/** Receives one message already read as text (the demo, older callers); answered in UTF-8. */
export async function receiveHl7(db: Database, text: string): Promise<Hl7Outcome> {
  const declared = envelopeOf(Buffer.from(text.slice(0, 4096), 'utf8'), null);
  // Already text: a message that declares UTF-8 hears it named back; any other is answered in
  // UTF-8 without naming it (the bytes it was read from are gone).
  return process(db, text, {
    charset: 'utf-8',
    declared: declared.ok && declared.envelope.declared && declared.envelope.charset === 'utf-8',
  });
}

/** A message whose bytes could not be read: recorded as well as it can be, answered. */
async function refuseUnread(
  db: Database,
  body: Buffer,
  charset: Charset,
  code: 'AE' | 'AR',
  error: AckError,
): Promise<Hl7Outcome> {
  // Read loosely only to record it and to echo its header (ASCII in every charset we read).
  const loose = new TextDecoder(charset === 'us-ascii' ? 'windows-1252' : charset).decode(body);
  const parsed = parseOru(loose, []);
  const header = parsed.header;
  return reject(db, header, code, error, loose, { charset, declared: charset !== 'utf-8' }, [
    ...probeCodesOfParsed(parsed),
  ]);
}

/**
 * A message refused before it was processed (too large, not ER7: ADR 034), recorded with the
 * bytes the transport kept and answered with an AE or AR in its own separators and charset.
 */
export function refuseByTransport(
  db: Database,
  head: Buffer,
  code: 'AE' | 'AR',
  error: AckError,
): Promise<Hl7Outcome> {
  const envelope = envelopeOf(head, null);
  return refuseUnread(
    db,
    head,
    envelope.ok ? envelope.envelope.charset : envelope.fallback,
    code,
    error,
  );
}

/**
 * The AE or AR for a message the transport will not take at all (the import switched off):
 * built from its header as received, recorded nowhere.
 */
export function transportAnswer(head: Buffer, code: 'AE' | 'AR', error: AckError): Hl7Outcome {
  const envelope = envelopeOf(head, null);
  const charset = envelope.ok ? envelope.envelope.charset : envelope.fallback;
  const loose = new TextDecoder(charset === 'us-ascii' ? 'windows-1252' : charset).decode(head);
  return answer(
    parseOru(loose, []).header,
    code,
    error,
    {
      charset,
      declared: envelope.ok && envelope.envelope.declared,
    },
    { reason: error.text, duplicate: false },
  );
}

async function process(db: Database, text: string, envelope: Envelope): Promise<Hl7Outcome> {
  // A locked study takes no data (ADR 048): an AE the laboratory resends later, recorded nowhere
  // (recording is a write too).
  if (await isStudyLocked(db)) {
    let header = UNKNOWN_HEADER;
    try {
      header = parseOru(text, []).header;
    } catch {
      // The header stays unknown; the answer is an AE all the same.
    }
    return answer(header, 'AE', { code: 207, text: 'study locked' }, envelope, {
      reason: 'study locked',
      duplicate: false,
    });
  }
  const decodeBytes = (bytes: Buffer) => {
    try {
      return decodeStrict(bytes, envelope.charset);
    } catch {
      return '\uFFFD';
    }
  };
  let parsed;
  try {
    parsed = parseOru(text, await loadMedicineCodes(db), { decodeBytes });
  } catch {
    // A fault of ours while reading: answered and recorded, never a 500.
    return reject(db, UNKNOWN_HEADER, 'AE', { code: 207, text: 'internal error' }, text, envelope);
  }
  if (!parsed.ok) {
    return reject(
      db,
      parsed.header,
      parsed.ackCode,
      parsed.error,
      text,
      envelope,
      parsed.probeCodes,
    );
  }
  const { oru, header } = parsed;
  const accept = (duplicate: boolean): Hl7Outcome =>
    answer(header, 'AA', null, envelope, { reason: null, duplicate });
  if (await alreadyAccepted(db, oru.controlId)) return accept(true);
  try {
    await store(db, oru, text);
  } catch (error) {
    // Two deliveries at once: the other one stored it (the unique index on accepted ids).
    if (isUniqueViolation(error, 'lab_messages_accepted_control_id_key')) return accept(true);
    if (error instanceof AppError && error.statusCode === 422) {
      return reject(
        db,
        header,
        'AE',
        {
          code: 207,
          text: 'OBX: the sample is not tested for this medicine',
          reason: { code: 'medicine_not_tested', params: await untestedMedicine(db, oru) },
        },
        text,
        envelope,
        probeCodesOfParsed(parsed),
      );
    }
    return reject(
      db,
      header,
      'AE',
      { code: 207, text: 'internal error' },
      text,
      envelope,
      probeCodesOfParsed(parsed),
    );
  }
  // Kept until the next accepted message, which clears it (the settings screen then shows none).
  // A read is cheaper than a write per message: clear only what is there.
  if ((await readSetting(db, SYNEVO_LAST_ERROR)).value !== null) await recordSynevoError(db, null);
  return accept(false);
}

function answer(
  header: AckHeader,
  code: AckCode,
  error: AckError | null,
  envelope: Envelope,
  outcome: { reason: string | null; duplicate: boolean },
): Hl7Outcome {
  const ack = buildAck(header, code, error, {
    charset: envelope.declared ? envelope.charset : null,
  });
  const encoded = ackBytes(ack, envelope.charset);
  return {
    code,
    ack,
    ackBytes: encoded.bytes,
    ackContentType: encoded.contentType,
    reason: outcome.reason,
    errorCode: error?.code ?? null,
    duplicate: outcome.duplicate,
  };
}

async function alreadyAccepted(db: Database, controlId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: labMessages.id })
    .from(labMessages)
    .where(and(eq(labMessages.control_id, controlId), eq(labMessages.status, 'accepted')))
    .limit(1);
  return row !== undefined;
}

// eslint-disable-next-line no-control-regex -- PostgreSQL text cannot hold NUL
const withoutNul = (text: string) => text.replace(/\u0000/g, '\uFFFD');

/** What a refusal without its own code is, by its HL7 table 0357 code. */
const LAB_CODE_OF: Record<ErrorCode, LabErrorCode> = {
  100: 'malformed_message',
  101: 'malformed_message',
  102: 'malformed_message',
  103: 'malformed_message',
  200: 'unsupported_message',
  201: 'unsupported_message',
  202: 'not_production',
  203: 'unsupported_message',
  207: 'internal_error',
};

/** The samples a message that was read names: those of its results and unknown tests. */
function probeCodesOfParsed(parsed: ReturnType<typeof parseOru>): string[] {
  if (!parsed.ok) return parsed.probeCodes;
  return [
    ...new Set([
      ...parsed.oru.results.map((result) => result.probeCode),
      ...parsed.oru.unknown.map((result) => result.probeCode),
    ]),
  ];
}

/**
 * A refused message, recorded (ADR 032: every error findable) with its ACK text, its reason as a
 * code and parameters for the portal's users, and the samples it named (their pages say their
 * results were refused); the same becomes the integration's last error.
 */
async function reject(
  db: Database,
  header: AckHeader,
  code: 'AE' | 'AR',
  error: AckError,
  text: string,
  envelope: Envelope,
  probeCodes: readonly string[] = [],
): Promise<Hl7Outcome> {
  const controlId = header.controlId || null;
  const reason: LabReason = error.reason ?? { code: LAB_CODE_OF[error.code], params: {} };
  // Decoded values (\X00\ is NUL) go into text columns, which cannot hold NUL.
  const params = Object.fromEntries(
    Object.entries(reason.params).map(([key, value]) => [key, withoutNul(value)]),
  );
  const codes = [...new Set(probeCodes.map(withoutNul))];
  await db.insert(labMessages).values({
    control_id: (controlId ?? '').slice(0, 199) || '-',
    status: 'rejected',
    error: `${error.code} ${error.text}`.slice(0, 500),
    error_code: reason.code,
    error_params: params,
    probe_codes: codes.length > 0 ? codes : null,
    results_count: 0,
    raw: withoutNul(text),
  });
  // The detail is the ACK's text: segments and fields only. The parameters name the sample and
  // the analyte, for the administrator (the settings screen), never a patient's data.
  await recordSynevoError(db, {
    code: reason.code,
    params,
    detail: withoutNul(error.text).slice(0, 500),
    control_id: controlId === null ? null : withoutNul(controlId).slice(0, 199),
  });
  return answer(header, code, error, envelope, { reason: error.text, duplicate: false });
}

/**
 * The sample and medicine of a 422 from storing a message (a medicine the sample is not tested
 * for): found by looking, since applyLabResultsMany tells only that one was.
 */
async function untestedMedicine(
  db: Database,
  oru: ParsedOru,
): Promise<{ probe_code?: string; analyte?: string }> {
  const drugs = oru.results.filter((result) => medicineIdOf(result.analyte) !== null);
  if (drugs.length === 0) return {};
  const byCode = await samplesByCode(db, [...new Set(drugs.map((result) => result.probeCode))]);
  const ids = [...byCode.values()].map((sample) => sample.id);
  const tested = new Set(
    (ids.length === 0
      ? []
      : await db
          .select({ probe_id: probeMedicines.probe_id, medicine_id: probeMedicines.medicine_id })
          .from(probeMedicines)
          .where(inArray(probeMedicines.probe_id, ids))
    ).map((row) => `${row.probe_id}:${row.medicine_id}`),
  );
  const untested = drugs.find((result) => {
    const sample = byCode.get(result.probeCode);
    return sample && !tested.has(`${sample.id}:${medicineIdOf(result.analyte)}`);
  });
  return untested ? { probe_code: untested.probeCode, analyte: untested.analyte } : {};
}

type Verdict = 'no_probe' | PatientMismatch | null;

/** Rows per INSERT of unmatched results: 15 columns × 1,000 stays far under 65,535 parameters. */
const UNMATCHED_CHUNK = 1_000;
/** The longest comment kept per sample or result. */
const COMMENT_MAX = 4_000;

const commentText = (lines: readonly string[]) =>
  lines.length === 0 ? null : lines.join('\n').slice(0, COMMENT_MAX);

function incomingComments(comments: SampleComments | undefined): IncomingComments | null {
  if (!comments) return null;
  const results: Partial<Record<LabAnalyte, string>> = {};
  for (const [analyte, lines] of comments.results) {
    const text = commentText(lines);
    if (text) results[analyte] = text;
  }
  return { sample: commentText(comments.sample), results };
}

async function store(db: Database, oru: ParsedOru, text: string): Promise<void> {
  const codes = [
    ...new Set([
      ...oru.results.map((result) => result.probeCode),
      ...oru.unknown.map((result) => result.probeCode),
    ]),
  ];
  await inTransaction(db, null, async (tx) => {
    await markAuditSource(tx, 'hl7');
    const [recorded] = await tx
      .insert(labMessages)
      .values({
        control_id: oru.controlId,
        sending_facility: oru.sendingFacility,
        status: 'accepted',
        results_count: oru.results.length + oru.unknown.length,
        raw: text,
      })
      .returning({ id: labMessages.id });
    const messageId = recorded?.id ?? null;
    const byCode = await samplesByCode(tx, codes);

    const matched = new Map<number, SampleResults>();
    const matchedCodes = new Map<number, string>();
    const unmatched: (typeof unmatchedResults.$inferInsert)[] = [];
    for (const result of oru.results) {
      const probe = byCode.get(result.probeCode);
      const verdict: Verdict = !probe
        ? 'no_probe'
        : patientMismatch({ sex: result.patientSex, birthDate: result.patientBirthDate }, probe);
      if (verdict || !probe) {
        unmatched.push(
          unmatchedRow(
            result,
            verdict ?? 'no_probe',
            messageId,
            oru.comments.get(result.probeCode),
          ),
        );
        continue;
      }
      let entry = matched.get(probe.id);
      if (!entry) {
        entry = { probeId: probe.id, results: [] };
        matched.set(probe.id, entry);
        matchedCodes.set(probe.id, result.probeCode);
      }
      entry.results.push({
        analyte: result.analyte,
        value: result.value,
        comparator: result.comparator ?? null,
        labRange: result.labRange,
        dateOfAnalysis: result.dateOfAnalysis,
        hours: result.hours,
      });
    }
    // Comments go with the samples whose results were attached; the others keep theirs in `raw`.
    for (const [probeId, entry] of matched) {
      entry.comments = incomingComments(oru.comments.get(matchedCodes.get(probeId) ?? ''));
    }
    for (const result of oru.unknown) {
      unmatched.push(unknownRow(result, messageId, oru.comments.get(result.probeCode)));
    }
    const waiting: number[] = [];
    for (let i = 0; i < unmatched.length; i += UNMATCHED_CHUNK) {
      const saved = await tx
        .insert(unmatchedResults)
        .values(unmatched.slice(i, i + UNMATCHED_CHUNK))
        .returning({ id: unmatchedResults.id });
      waiting.push(...saved.map(({ id }) => id));
    }
    if (waiting.length > 0) {
      // The administrators hear once per message of the results waiting to be matched (ADR 062).
      await enqueueNotification(tx, {
        type: 'unmatched_result',
        unmatched_id: Math.min(...waiting),
        count: waiting.length,
      });
    }
    await applyLabResultsMany(tx, [...matched.values()], 'hl7');
  });
}

function withComment(
  raw: Record<string, string>,
  comments: SampleComments | undefined,
): Record<string, string> {
  const sample = comments ? commentText(comments.sample) : null;
  return sample ? { ...raw, NTE: sample } : raw;
}

function unmatchedRow(
  result: ParsedResult,
  reason: 'no_probe' | 'sex_mismatch' | 'birth_date_mismatch',
  messageId: number | null,
  comments: SampleComments | undefined,
): typeof unmatchedResults.$inferInsert {
  const comparator = result.comparator
    ? result.comparator.comparator === '-'
      ? `${result.value}-${result.comparator.upper ?? ''}`
      : `${result.comparator.comparator}${result.value}`
    : null;
  return {
    lab_message_id: messageId,
    probe_code: result.probeCode,
    analyte: result.analyte,
    value: result.value,
    unit: result.unit,
    lab_range: result.labRange?.text ?? null,
    date_of_analysis: result.dateOfAnalysis,
    hours: result.hours,
    patient_sex: result.patientSex,
    patient_birth_date: result.patientBirthDate,
    patient_firstname: result.patientFirstname,
    patient_surname: result.patientSurname,
    reason,
    raw: {
      ...withComment(result.raw, comments),
      ...(comparator ? { comparator } : {}),
      ...(comments?.results.get(result.analyte)
        ? { comment: commentText(comments.results.get(result.analyte) ?? []) ?? '' }
        : {}),
    },
  };
}

function unknownRow(
  result: UnknownAnalyteResult,
  messageId: number | null,
  comments: SampleComments | undefined,
): typeof unmatchedResults.$inferInsert {
  return {
    lab_message_id: messageId,
    probe_code: result.probeCode,
    analyte: result.code,
    value: result.value,
    unit: result.unit || null,
    lab_range: result.rangeText,
    date_of_analysis: result.dateOfAnalysis,
    hours: null,
    patient_sex: result.patientSex,
    patient_birth_date: result.patientBirthDate,
    patient_firstname: result.patientFirstname,
    patient_surname: result.patientSurname,
    reason: 'unknown_analyte',
    raw: withComment(result.raw, comments),
  };
}
