import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  trackingRefreshResult,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { findReachableProbeSet } from '../../policies/probe-sets.js';
import { registerTrackingJob } from './job.js';
import { refreshShipments } from './refresh.js';

/** Shipment tracking: refresh now, every kit or one order's (the background job's work) (ADR 031). */
export const shipmentRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, jobs, tracking, config },
) => {
  registerTrackingJob(jobs, db, tracking, config.tracking, app.log);

  app.post(
    '/probe-sets/tracking/refresh',
    {
      config: { access: 'probe_sets.manage' },
      schema: {
        tags: ['probe-sets'],
        summary:
          'Refreshes now the shipment status of every kit not yet delivered (waybill set, order accepted) and answers the counts; kits another refresh is asking about are left to it, a provider failure is recorded on the kit (last_error) and counted as failed',
        response: {
          200: trackingRefreshResult,
          401: errorResponse,
          403: errorResponse,
        },
      },
    },
    // Awaited inline: an administrator asked and waits for the answer (the job does the same).
    async (request) => refreshShipments(db, tracking, { log: request.log }),
  );

  app.post(
    '/probe-sets/:id/tracking/refresh',
    {
      config: { access: 'probe_sets.manage' },
      schema: {
        tags: ['probe-sets'],
        summary:
          "Refreshes now the shipment status of one order's kits that are due (waybill set, not delivered, order accepted) and answers the counts; an order that is not accepted has none (all counts 0); 404 for a missing order",
        params: idParams,
        response: {
          200: trackingRefreshResult,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const order = await findReachableProbeSet(db, actorOf(request), request.params.id);
      return refreshShipments(db, tracking, { probeSetId: order.id, log: request.log });
    },
  );
};
