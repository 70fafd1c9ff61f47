import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditList, auditQuery, errorResponse, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { noteRead } from '../../plugins/read-log.js';

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
    async (request) => {
      const answer = await service.listAuditFor(db, actorOf(request), request.query);
      noteRead(
        request,
        'audit',
        answer.data.flatMap((entry) => (entry.patient ? [entry.patient.id] : [])),
      );
      return answer;
    },
  );
};
