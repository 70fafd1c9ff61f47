import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  signatureBody,
  signatureList,
  signatureListQuery,
  signatureSaved,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';

const tags = ['signatures'];

export const signatureRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, throttle }) => {
  app.post(
    '/signatures',
    {
      config: { access: 'signatures.sign', noStore: true },
      schema: {
        tags,
        summary:
          'Signs a recorded visit or a sample with results (password again, throttled like a sign-in); 409 not_signable, already_signed, patient_deleted',
        body: signatureBody,
        response: {
          201: signatureSaved,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const signature = await service.sign(
        db,
        throttle,
        actorOf(request),
        request.body,
        request.ip,
      );
      return reply.code(201).send({ signature });
    },
  );

  app.get(
    '/signatures',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        summary: "A visit's or sample's signatures, valid and invalidated (ADR 050)",
        querystring: signatureListQuery,
        response: {
          200: signatureList,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    (request) =>
      service.listSignatures(
        db,
        actorOf(request),
        request.query.record_type,
        request.query.record_id,
      ),
  );
};
