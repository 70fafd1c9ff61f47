import type { Database } from '../../db/client.js';
import { receiveHl7Bytes, refuseByTransport, transportAnswer } from './hl7-service.js';
import type { Hl7Outcome } from './hl7-service.js';
import { hl7Messages } from '../../lib/metrics.js';

/**
 * What HTTP (`POST /api/lab/hl7`) and MLLP (mllp.ts) share: the size limit, the one call that
 * processes a message, and the record of a message refused before it could be read (ADR 034).
 */

/**
 * The largest message taken, in bytes, over HTTP and MLLP alike. A message of 10,000 results is
 * about 1–2 MB of ER7; 8 MiB leaves room for long comments and still bounds the memory one
 * message can take (the bytes, their text and the parsed segments, a few times the size).
 */
export const HL7_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What is kept of a message refused unread (too large, not ER7): enough to find its MSH. */
export const HL7_KEPT_HEAD_BYTES = 64 * 1024;

export interface Hl7Answer {
  ackBytes: Buffer;
  ackContentType: string;
  /** True for an AE or AR: the message was recorded as rejected (or, AR, not taken at all). */
  refused: boolean;
  /** Why, for the log: names segments and fields, never a patient's data. */
  reason: string | null;
}

/**
 * Processes one message as received (bytes) with the charset its transport declared, if any
 * (HTTP's Content-Type; MLLP declares none). Everything about the content — charsets, MSH-18,
 * the ACK — is hl7-service.ts's; this is the one place both transports call.
 */
export async function processHl7(
  db: Database,
  body: Buffer,
  transportCharset: string | null,
): Promise<Hl7Answer> {
  return answerOf(await receiveHl7Bytes(db, body, transportCharset));
}

/**
 * Records a message refused before it was read (ADR 032: every message is findable): the first
 * 64 KiB as its raw text, the reason with the size, and the laboratory settings' last error.
 * Answers the AE to send where the transport carries one (MLLP). ERR-3 is 207, an error of the
 * receiving application.
 */
export async function recordUnread(
  db: Database,
  head: Buffer,
  reason: string,
  labCode: 'message_too_large' | 'not_er7',
): Promise<Hl7Answer> {
  const kept = head.subarray(0, HL7_KEPT_HEAD_BYTES);
  return answerOf(
    await refuseByTransport(db, kept, 'AE', {
      code: 207,
      text: reason,
      reason: { code: labCode, params: {} },
    }),
  );
}

/**
 * An AE or AR for a message that was not processed (import switched off, the portal failing),
 * built from its MSH with its own separators and charset, with an ERR segment (ERR-3 207).
 */
export function refusalAck(message: Buffer, code: 'AE' | 'AR', text: string): Hl7Answer {
  return answerOf(
    transportAnswer(message.subarray(0, HL7_KEPT_HEAD_BYTES), code, { code: 207, text }),
  );
}

function answerOf(outcome: Hl7Outcome): Hl7Answer {
  // Every message either transport answers passes here once: counted by its ACK (ADR 056).
  hl7Messages.inc({ outcome: outcome.code });
  return {
    ackBytes: outcome.ackBytes,
    ackContentType: outcome.ackContentType,
    refused: outcome.code !== 'AA',
    reason: outcome.reason,
  };
}

/** The charset parameter of a Content-Type header (unquoted), if any. */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const value = (match?.[1] ?? match?.[2] ?? '').trim();
  return value || null;
}
