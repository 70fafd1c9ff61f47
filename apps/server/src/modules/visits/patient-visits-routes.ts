import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams, visitList } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { patientVisits } from './patient-visits.js';

const tags = ['visits'];

/** Visits: a patient's visits (the next visit's window is in booking-routes.ts). */
export const patientVisitRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/patients/:id/visits',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary:
          "A patient's live visits, oldest first, each with its ordinal; another unit's patient answers 404",
        params: idParams,
        response: { 200: visitList, 401: errorResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const data = await patientVisits(db, actorOf(request), request.params.id);
      noteRead(request, 'patient_tab', [request.params.id]);
      return { data };
    },
  );
};
