import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@portal/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authenticateLab } from './hl7-service.js';
import {
  HL7_KEPT_HEAD_BYTES,
  HL7_MAX_MESSAGE_BYTES,
  charsetOf,
  processHl7,
  recordUnread,
} from './hl7-transport.js';
import { startMllpWithApp } from './mllp.js';
import { LAB_SIMULATOR_JOB, registerLabSimulatorJob } from './simulator.js';

const ER7_TYPES = ['text/plain', 'x-application/hl7-v2+er7', 'application/hl7-v2'];

/** The body as the parser leaves it: every byte, or only the first 64 KiB of one too large. */
interface ReceivedBody {
  bytes: Buffer;
  /** Bytes sent: counted, or as declared by Content-Length when the body was not read whole. */
  size: number;
  tooLarge: boolean;
}

/** An error the error handler answers with its status (the client broke off, say). */
class BodyReadError extends Error {
  readonly statusCode = 400;
}

/**
 * Reads a body as bytes up to the message limit. One over it is not read on: its first 64 KiB
 * are kept so that the refusal can be recorded (ADR 034), and the answer closes the connection.
 */
function readBody(stream: Readable, declared: number): Promise<ReceivedBody> {
  const limit = HL7_MAX_MESSAGE_BYTES;
  // A declared size over the limit needs only the head, to name the message in the record.
  const wanted = declared > limit ? Math.min(HL7_KEPT_HEAD_BYTES, declared) : limit;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (result: ReceivedBody | Error) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const head = () => Buffer.concat(chunks).subarray(0, HL7_KEPT_HEAD_BYTES);
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received - bytes.length < wanted) chunks.push(bytes);
      if (received > limit || (declared > limit && received >= wanted)) {
        stream.pause();
        finish({ bytes: head(), size: Math.max(received, declared || 0), tooLarge: true });
      }
    };
    const onEnd = () => {
      if (declared > limit) finish({ bytes: head(), size: declared, tooLarge: true });
      else finish({ bytes: Buffer.concat(chunks, received), size: received, tooLarge: false });
    };
    const onError = (error: Error) => finish(new BodyReadError(error.message));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.resume();
  });
}

const mediaTypeOf = (header: string | undefined) =>
  (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Refusals made before the body is read close the connection, so it is never read on. */
const closing = (reply: FastifyReply, code: number) =>
  reply.code(code).header('Connection', 'close');

/** The laboratory's results connector: HL7 v2.5 ORU^R01 in, ACK out (ADR 032, ADR 034). */
export const hl7Routes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, secrets, jobs, config, throttle },
) => {
  // The demo's fake laboratory sends to this route over HTTP; registered only when switched on.
  if (config.labSimulator.enabled) {
    registerLabSimulatorJob(jobs, {
      db,
      secrets,
      config: config.labSimulator,
      address: () => app.server.address(),
      log: app.log,
    });
  } else {
    // A schedule kept from a start with the simulator on would go on sending its jobs.
    jobs.unschedule(LAB_SIMULATOR_JOB);
  }
  // MLLP over TCP, when LAB_MLLP_PORT is set: started once the app is ready, stopped on close.
  startMllpWithApp(app, { db, config: config.labMllp });

  // Only in this plugin's context: every body is read as bytes, whatever its type, so that a
  // wrong type or size is refused by this route (and recorded), not by a parser (ADR 034). The
  // other routes keep refusing text bodies (media-types.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) =>
    readBody(payload, Number(request.headers['content-length'] ?? 0) || 0),
  );

  app.post(
    '/lab/hl7',
    {
      // Public for the token check: the laboratory signs in with HTTP Basic, checked below.
      config: { access: 'public', noStore: true },
      // Checked before the body is read: a stranger's body is never read, stored or logged.
      onRequest: async (request, reply) => {
        const authorization = request.headers.authorization;
        const challenge = () =>
          closing(reply, 401)
            .header('WWW-Authenticate', 'Basic realm="laboratory", charset="UTF-8"')
            .send({ status: 'unauthorized', error: 'Unauthorized' });
        // No credentials tried, nothing to count: clients that wait for the challenge send them next.
        if (!authorization) return challenge();
        // Counted before the password is compared, so a burst of guesses cannot all be checked
        // (ADR 016, ADR 034); a locked address waits even with the right password.
        const attempt = await throttle.attemptLab(request.ip, async (tx) => {
          const verdict = await authenticateLab(tx, secrets, authorization);
          return { ok: verdict !== 'unauthorized', value: verdict };
        });
        if (!attempt.allowed) {
          request.log.warn(
            { address: request.ip, retryAfter: attempt.retryAfter },
            'laboratory connector: address locked after wrong passwords',
          );
          return closing(reply, 429)
            .header('Retry-After', String(attempt.retryAfter))
            .send({ status: 'too_many_attempts', retry_after: attempt.retryAfter });
        }
        if (!attempt.ok) {
          request.log.warn(
            { address: request.ip },
            'laboratory connector: wrong login or password',
          );
          return challenge();
        }
        // Refused with HTTP, not an AE: the laboratory keeps the message and sends it again later.
        if (attempt.value === 'disabled') {
          return closing(reply, 403).send({ status: 'results_import_disabled' });
        }
      },
      schema: {
        tags: ['laboratory'],
        summary:
          'Receives one HL7 v2.5 ORU^R01 (ER7, HTTP Basic with the synevo login and password) and answers an HL7 ACK: MSA|AA, or MSA|AE|<control id>|<reason> with nothing stored but the refused message. The charset parameter of Content-Type is honoured. 403 while enable_results_import is off; 413 over 8 MiB and 415 for a type that is not ER7 (both recorded as refused messages); 429 after 10 wrong passwords from one address in 15 minutes',
        consumes: ER7_TYPES,
        // No Content-Type and no body reaches the handler with none (415 there).
        body: z
          .custom<ReceivedBody | undefined>(
            (value) => value === undefined || typeof value === 'object',
          )
          .meta({ type: 'string', description: 'One HL7 v2 message in ER7, at most 8 MiB' }),
        response: {
          200: z
            .custom<Buffer>((value) => Buffer.isBuffer(value))
            .meta({ type: 'string', description: 'HL7 ACK (ER7), text/plain' }),
          401: errorResponse,
          403: errorResponse,
          413: errorResponse,
          415: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? { bytes: Buffer.alloc(0), size: 0, tooLarge: false };
      const type = mediaTypeOf(request.headers['content-type']);
      if (!ER7_TYPES.includes(type)) {
        const named = type.replace(/[^\w.+/-]/g, '?').slice(0, 100) || 'none';
        await recordUnread(db, body.bytes, `Content-Type ${named} is not HL7 ER7`, 'not_er7');
        request.log.warn({ contentType: named }, 'laboratory message refused: not ER7');
        return closing(reply, 415).send({
          status: 'error',
          error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          message: `Content-Type must be one of ${ER7_TYPES.join(', ')}`,
        });
      }
      if (body.tooLarge) {
        const reason = `message of ${body.size} bytes over the limit of ${HL7_MAX_MESSAGE_BYTES}; its first ${body.bytes.length} bytes kept`;
        await recordUnread(db, body.bytes, reason, 'message_too_large');
        request.log.warn({ size: body.size }, 'laboratory message refused: too large');
        return closing(reply, 413).send({
          status: 'error',
          error: 'FST_ERR_CTP_BODY_TOO_LARGE',
          message: `An HL7 message may have at most ${HL7_MAX_MESSAGE_BYTES} bytes`,
        });
      }
      const answer = await processHl7(db, body.bytes, charsetOf(request.headers['content-type']));
      if (answer.refused) {
        request.log.warn({ reason: answer.reason }, 'laboratory message refused');
      }
      // Answered in the media type the laboratory sent (text/plain or an HL7 one), with the
      // charset the ACK is written in.
      const ackType = answer.ackContentType.replace(/^[^;]+/, type);
      return reply.code(200).header('Content-Type', ackType).send(answer.ackBytes);
    },
  );
};
