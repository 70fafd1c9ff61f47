import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, probeListQuery, probePage, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { listProbes } from './list.js';

/** Samples: the paged list of every reachable sample (ADR 030). */
export const probeListRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/probes',
    {
      config: { access: 'probes.read' },
      schema: {
        tags: ['probes'],
        summary:
          "Samples of the reachable active patients (a doctor: the own unit), paged, sorted and filtered by patient, created day (Warsaw), search, status, the patient's unit (another unit: 404) and an analyte out of norm",
        querystring: probeListQuery,
        response: {
          200: probePage,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listProbes(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((probe) => probe.patient_id),
      );
      return answer;
    },
  );
};
