import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  reasonOrValidationError,
  errorResponse,
  idParams,
  probeResultsBody,
  probeSaved,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { saveProbeResults } from './hand-entry.js';

/** Samples: results entered by hand, with out-of-norm flags and safety alerts (ADR 030). */
export const probeResultsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.put(
    '/probes/:id/results',
    {
      config: { access: 'probes.results' },
      schema: {
        tags: ['probes'],
        summary:
          "Enters or corrects a sample's results by hand (absent fields stay, null clears; audited); storing a value moves it to received and evaluates the safety rules. 409 conflict, patient_deleted",
        params: idParams,
        body: probeResultsBody,
        response: {
          200: probeSaved,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          422: reasonOrValidationError,
        },
      },
    },
    async (request) => {
      const probe = await saveProbeResults(db, actorOf(request), request.params.id, request.body);
      return { status: 'success' as const, probe };
    },
  );
};
