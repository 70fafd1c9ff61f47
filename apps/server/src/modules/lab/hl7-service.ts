import { createHash, timingSafeEqual } from 'node:crypto';
import { Hl7Message, Hl7Segment } from '@medplum/core';
import { SYNEVO_LAST_ERROR } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { labMessages, medicines, patients, probes, unmatchedResults } from '../../db/schema.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import { readSetting, readSynevoCredentials, recordSynevoError } from '../settings/service.js';
import { applyLabResults } from './apply-results.js';
import type { LabResult } from './apply-results.js';
import { parseOru } from './hl7-parse.js';
import { patientMismatch } from './patient-check.js';
import type { PatientMismatch } from './patient-check.js';
import type { MedicineCode, ParsedOru, ParsedResult } from './hl7-parse.js';

/**
 * The laboratory's results connector (design §5 "Laboratory integration", §6 "Laboratory", ADR
 * 032). One message is stored all or nothing, in one short transaction with no acting user (the
 * audit trail shows the system); a rejected message is recorded outside it, so every error is
 * findable. The same accepted control id (MSH-10) again answers AA and changes nothing.
 */

export type AckCode = 'AA' | 'AE';

export interface Hl7Outcome {
  code: AckCode;
  /** The ACK in ER7, to answer with. */
  ack: string;
  reason: string | null;
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

/** HL7 forbids its separators inside a field; a reason is plain text. */
const plain = (text: string) => text.replace(/[|^~\\&\r\n]/g, ' ').slice(0, 200);

/** The ACK for a message (medplum builds it); an unparsable message gets a minimal one. */
export function buildAck(
  message: Hl7Message | null,
  code: AckCode,
  controlId: string | null,
  reason: string | null,
): string {
  const ack =
    message?.header.name === 'MSH'
      ? message.buildAck({ ackCode: code })
      : new Hl7Message([
          new Hl7Segment([
            'MSH',
            '^~\\&',
            'PORTAL',
            '',
            '',
            '',
            new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14),
            '',
            'ACK',
            String(Date.now()),
            'P',
            '2.5',
          ]),
          new Hl7Segment(['MSA', code, '']),
        ]);
  const msa = ack.getSegment('MSA');
  if (msa) {
    msa.setField(2, plain(controlId ?? ''));
    msa.setField(3, code === 'AA' ? 'OK' : plain(reason ?? 'Application Error'));
  }
  return ack.toString();
}

/** The medicines a laboratory may name in OBX-3 (the connector's and the data import's). */
export function loadMedicineCodes(db: Database): Promise<MedicineCode[]> {
  return db.select({ id: medicines.id, inn: medicines.inn, cas: medicines.cas }).from(medicines);
}

/** Receives one ER7 message; never throws for the message's content (that is an AE). */
export async function receiveHl7(db: Database, text: string): Promise<Hl7Outcome> {
  const parsed = parseOru(text, await loadMedicineCodes(db));
  if (!parsed.ok) {
    return reject(db, parsed.message, parsed.controlId, parsed.reason, text);
  }
  const { oru, message } = parsed;
  const accept = (duplicate: boolean): Hl7Outcome => ({
    code: 'AA',
    ack: buildAck(message, 'AA', oru.controlId, null),
    reason: null,
    duplicate,
  });
  if (await alreadyAccepted(db, oru.controlId)) return accept(true);
  try {
    await store(db, oru, text);
  } catch (error) {
    // Two deliveries at once: the other one stored it (the unique index on accepted ids).
    if (isUniqueViolation(error, 'lab_messages_accepted_control_id_key')) return accept(true);
    if (error instanceof AppError && error.statusCode === 422) {
      return reject(
        db,
        message,
        oru.controlId,
        'OBX: the sample is not tested for this medicine',
        text,
      );
    }
    throw error;
  }
  // Kept until the next accepted message, which clears it (the settings screen then shows none).
  // A read is cheaper than a write per message: clear only what is there.
  if ((await readSetting(db, SYNEVO_LAST_ERROR)).value !== null) await recordSynevoError(db, null);
  return accept(false);
}

async function alreadyAccepted(db: Database, controlId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: labMessages.id })
    .from(labMessages)
    .where(and(eq(labMessages.control_id, controlId), eq(labMessages.status, 'accepted')))
    .limit(1);
  return row !== undefined;
}

async function reject(
  db: Database,
  message: Hl7Message | null,
  controlId: string | null,
  reason: string,
  text: string,
): Promise<Hl7Outcome> {
  await db.insert(labMessages).values({
    control_id: (controlId ?? '').slice(0, 199) || '-',
    status: 'rejected',
    error: reason,
    results_count: 0,
    // eslint-disable-next-line no-control-regex -- PostgreSQL text cannot hold NUL
    raw: text.replace(/\u0000/g, '\uFFFD'),
  });
  // The reason names segments and fields only, never a patient's data.
  await recordSynevoError(db, `HL7 ${controlId ?? '-'}: ${reason}`.slice(0, 500));
  return { code: 'AE', ack: buildAck(message, 'AE', controlId, reason), reason, duplicate: false };
}

type Verdict = 'no_probe' | PatientMismatch | null;

async function store(db: Database, oru: ParsedOru, text: string): Promise<void> {
  const codes = [...new Set(oru.results.map((result) => result.probeCode))];
  await inTransaction(db, null, async (tx) => {
    const [recorded] = await tx
      .insert(labMessages)
      .values({
        control_id: oru.controlId,
        sending_facility: oru.sendingFacility,
        status: 'accepted',
        results_count: oru.results.length,
        raw: text,
      })
      .returning({ id: labMessages.id });
    const messageId = recorded?.id ?? null;
    const found = await tx
      .select({
        id: probes.id,
        code: probes.code,
        sex: patients.sex,
        birth_date: patients.birth_date,
      })
      .from(probes)
      .innerJoin(patients, eq(patients.id, probes.patient_id))
      .where(inArray(probes.code, codes));
    const byCode = new Map(found.map((row) => [row.code, row]));

    const matched = new Map<number, LabResult[]>();
    const unmatched: (typeof unmatchedResults.$inferInsert)[] = [];
    for (const result of oru.results) {
      const probe = byCode.get(result.probeCode);
      const verdict: Verdict = !probe
        ? 'no_probe'
        : patientMismatch({ sex: result.patientSex, birthDate: result.patientBirthDate }, probe);
      if (verdict || !probe) {
        unmatched.push(unmatchedRow(result, verdict ?? 'no_probe', messageId));
        continue;
      }
      const list = matched.get(probe.id) ?? [];
      list.push({
        analyte: result.analyte,
        value: result.value,
        labRange: result.labRange,
        dateOfAnalysis: result.dateOfAnalysis,
        hours: result.hours,
      });
      matched.set(probe.id, list);
    }
    if (unmatched.length > 0) await tx.insert(unmatchedResults).values(unmatched);
    for (const [probeId, results] of matched) {
      await applyLabResults(tx, probeId, results, 'hl7');
    }
  });
}

function unmatchedRow(
  result: ParsedResult,
  reason: 'no_probe' | 'sex_mismatch' | 'birth_date_mismatch',
  messageId: number | null,
): typeof unmatchedResults.$inferInsert {
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
    reason,
    raw: result.raw,
  };
}
