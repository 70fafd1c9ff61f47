import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessLogList,
  accessLogQuery,
  errorResponse,
  idParams,
  patientIdentity,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './service.js';

export const accessLogRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/access_log',
    {
      config: { access: 'access_log.read' },
      schema: {
        tags: ['privacy'],
        summary:
          "The read-access log, newest first: who saw which patients' data, when, from where (ADR 052); page by `page` or by key with `after`/`before`",
        querystring: accessLogQuery,
        response: {
          200: accessLogList,
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    (request) => service.listAccessLog(db, request.query),
  );

  app.get(
    '/patients/:id/identity',
    {
      config: { access: 'patients.identity.read', noStore: true },
      schema: {
        tags: ['privacy'],
        summary:
          'The patient\'s PESEL and contacts in clear (the card\'s "Pokaż"); logged as a read of kind identity (ADR 053)',
        params: idParams,
        response: {
          200: patientIdentity,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
        },
      },
    },
    async (request) => {
      const identity = await service.patientIdentity(db, actorOf(request), request.params.id);
      noteRead(request, 'identity', [request.params.id]);
      return identity;
    },
  );
};
