import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, overdueList, overdueQuery, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { listOverdue } from './overdue.js';

/** Visits: patients whose visit window closed without a visit (ADR 029). */
export const overdueRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/visits/overdue',
    {
      config: { access: 'visits.read' },
      schema: {
        tags: ['visits'],
        summary:
          "Patients whose next visit's window closed before today without a visit (a doctor's own unit; an administrator's every unit or unit_id)",
        querystring: overdueQuery,
        response: {
          200: overdueList,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listOverdue(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((row) => row.patient_id),
      );
      return answer;
    },
  );
};
