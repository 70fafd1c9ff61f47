import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';

/** What Fastify answers to a body type no parser takes; multipart on a JSON route says the same. */
const unsupported = () => new AppError(415, 'error', { error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });

/**
 * Request bodies are JSON, except on the routes that declare `consumes: ['multipart/form-data']`
 * (uploads). Fastify parses text/plain into a string by default, which zod then refused with a
 * misleading 422; without that parser any other type answers 415, and a multipart body (whose
 * parser is registered for the uploads) is refused with 415 everywhere else.
 */
export const mediaTypesPlugin = fp((app: FastifyInstance) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', (request, _reply, done) => {
    const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
    if (request.isMultipart() && !consumes?.includes('multipart/form-data')) done(unsupported());
    else done();
  });
});
