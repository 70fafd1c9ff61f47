import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditList, auditQuery, errorResponse, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';

export const auditRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/audit_trial',
    {
      config: { access: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit entries, newest first: one per changed column of patient data',
        querystring: auditQuery,
        response: { 200: auditList, 404: errorResponse, 422: validationErrorResponse },
      },
    },
    // A monitor reads its reachable patients' trail only (ADR 051).
    (request) => service.listAuditFor(db, actorOf(request), request.query),
  );
};
