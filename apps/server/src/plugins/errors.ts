import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isValidationCode, onlyNotFound, validationMessage } from '@portal/shared';
import type { Locale } from '@portal/shared';
import { AppError, isRecordLocked } from '../lib/errors.js';

/** The caller's language for messages: English when asked for first, Polish otherwise. */
export function requestLocale(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  return typeof header === 'string' && /^en\b/i.test(header.trim()) ? 'en' : 'pl';
}

function translate(errors: Record<string, string[]>, locale: Locale): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, codes]) => [
      field,
      codes.map((code) => (isValidationCode(code) ? validationMessage(code, locale) : code)),
    ]),
  );
}

function fieldErrors(validation: NonNullable<FastifyError['validation']>) {
  const errors: Record<string, string[]> = {};
  for (const v of validation) {
    const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    const code = v.message && isValidationCode(v.message) ? v.message : 'invalid';
    const list = (errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}

/**
 * One error handler for the whole API: business refusals keep their status word, validation
 * errors list messages per field in the caller's language, and anything unexpected is logged and
 * answered with a generic 500 that reveals nothing.
 */
export const errorsPlugin = fp((app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const locale = requestLocale(request);
    if (error instanceof AppError) {
      const body: Record<string, unknown> = { status: error.status, ...error.body };
      if (error.status === 'validation_error' && error.body.errors) {
        body.errors = translate(error.body.errors as Record<string, string[]>, locale);
      }
      if (error.statusCode === 429 && typeof error.body.retry_after === 'number') {
        void reply.header('Retry-After', String(error.body.retry_after));
      }
      return reply.status(error.statusCode).send(body);
    }
    if (isRecordLocked(error)) {
      // Sent as is: a route's own 409 schema may name only its own status words (ADR 048).
      return reply
        .status(409)
        .type('application/json; charset=utf-8')
        .serializer(JSON.stringify)
        .send({ status: 'record_locked' });
    }
    if (hasZodFastifySchemaValidationErrors(error) && error.validation) {
      // An id beyond any row's (2³¹−1) names nothing: the same 404 as an id that does not exist.
      if (onlyNotFound(error.validation)) return reply.status(404).send({ status: 'not_found' });
      return reply.status(422).send({
        status: 'validation_error',
        errors: translate(fieldErrors(error.validation), locale),
      });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      return reply.status(statusCode).send({ status: 'error', error: error.code ?? 'bad_request' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ status: 'error', error: 'Internal Server Error' });
  });
});
