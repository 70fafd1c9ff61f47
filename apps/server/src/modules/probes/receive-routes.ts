import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alreadyReceivedResponse,
  errorResponse,
  receiveBody,
  receiveResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { receiveProbe } from './receive-service.js';

/** Samples: the reception scan at the laboratory (ADR 030). */
export const receiveRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/probes/receive',
    {
      config: { access: 'probes.write' },
      schema: {
        tags: ['probes'],
        summary:
          "Records a scanned label's arrival at the laboratory (time, user; collected → sent): 404 for an unknown code or another unit's sample, 409 already_received with the first scan",
        body: receiveBody,
        response: {
          200: receiveResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: alreadyReceivedResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      probe: await receiveProbe(db, actorOf(request), request.body.code),
    }),
  );
};
