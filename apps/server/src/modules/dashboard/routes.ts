import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dashboardQuery,
  dashboardResponse,
  errorResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { readDashboard } from './service.js';

/** The study dashboard (ADR 060). */
export const dashboardRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/dashboard',
    {
      config: { access: 'dashboard.read' },
      schema: {
        tags: ['dashboard'],
        summary:
          "The study at a glance: patients, recruitment, visits, samples, out-of-norm rates, open alerts and queries; a doctor's own unit only (another unit: 403)",
        querystring: dashboardQuery,
        response: {
          200: dashboardResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    (request) => readDashboard(db, actorOf(request), request.query),
  );
};
