import { Hl7Message, Hl7Segment } from '@medplum/core';
import type { Database } from '../../db/client.js';
import { labMessages } from '../../db/schema.js';
import { recordSynevoError } from '../settings/service.js';
import { receiveHl7 } from './hl7-service.js';

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
  _transportCharset: string | null,
): Promise<Hl7Answer> {
  const outcome = await receiveHl7(db, body.toString('utf8'));
  return {
    ackBytes: Buffer.from(outcome.ack, 'utf8'),
    ackContentType: 'text/plain; charset=utf-8',
    refused: outcome.code !== 'AA',
    reason: outcome.reason,
  };
}

/** Table 0357's code for errors that are the receiving application's (too large, switched off). */
const APPLICATION_ERROR = '207';

/**
 * Records a message refused before it was read (ADR 032: every message is findable): the first
 * 64 KiB as its raw text, the reason with the size, and the laboratory settings' last error.
 * Answers the AE to send where the transport carries one (MLLP).
 */
export async function recordUnread(db: Database, head: Buffer, reason: string): Promise<Hl7Answer> {
  const text = head.subarray(0, HL7_KEPT_HEAD_BYTES).toString('utf8');
  const controlId = controlIdOf(text);
  await db.insert(labMessages).values({
    control_id: (controlId ?? '').slice(0, 199) || '-',
    status: 'rejected',
    error: reason,
    results_count: 0,
    // eslint-disable-next-line no-control-regex -- PostgreSQL text cannot hold NUL
    raw: text.replace(/\u0000/g, '\uFFFD'),
  });
  await recordSynevoError(db, `HL7 ${controlId ?? '-'}: ${reason}`.slice(0, 500));
  return refusalAck(text, 'AE', reason);
}

/**
 * An AE or AR for a message that was not processed (too large, import switched off, the portal
 * failing), built from its MSH with its own separators, with an ERR segment (ERR-3 207,
 * application error; ERR-8 the text). A message with no readable MSH gets a bare one.
 */
export function refusalAck(message: Buffer | string, code: 'AE' | 'AR', text: string): Hl7Answer {
  const head = typeof message === 'string' ? message : message.subarray(0, 4096).toString('utf8');
  const msh = /^\s*(MSH[^\r\n]*)/.exec(head)?.[1];
  let original: Hl7Message;
  try {
    original = Hl7Message.parse(msh && msh.length >= 8 ? msh : 'MSH|^~\\&|||||||ACK||P|2.5');
  } catch {
    original = Hl7Message.parse('MSH|^~\\&|||||||ACK||P|2.5');
  }
  const { context } = original;
  const safe = plain(text, context.fieldSeparator + context.getMsh2());
  const err = new Hl7Segment(['ERR', '', '', '', 'E', '', '', '', safe], context);
  err.setField(
    3,
    [APPLICATION_ERROR, 'Application internal error', 'HL70357'].join(context.componentSeparator),
  );
  const ack = original.buildAck({ ackCode: code, errSegment: err });
  ack.getSegment('MSA')?.setField(3, safe);
  return {
    ackBytes: Buffer.from(ack.toString(), 'utf8'),
    ackContentType: 'text/plain; charset=utf-8',
    refused: true,
    reason: text,
  };
}

/** HL7 forbids its separators and line ends inside a field's text. */
function plain(text: string, separators: string): string {
  let out = '';
  for (const char of text) out += separators.includes(char) || char < ' ' ? ' ' : char;
  return out.slice(0, 200);
}

/** MSH-10 of a message's first segment, if it has one (for finding a refused message). */
function controlIdOf(text: string): string | null {
  const msh = /^\s*(MSH[^\r\n]*)/.exec(text)?.[1];
  if (!msh || msh.length < 4) return null;
  const fields = msh.split(msh.charAt(3));
  // fields[0] is "MSH" and MSH-1 is the separator itself: MSH-n is fields[n - 1].
  return fields[9]?.trim() || null;
}

/** The charset parameter of a Content-Type header (unquoted), if any. */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const value = (match?.[1] ?? match?.[2] ?? '').trim();
  return value || null;
}
