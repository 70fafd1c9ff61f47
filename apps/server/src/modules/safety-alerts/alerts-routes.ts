import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acknowledgeBody,
  alertListQuery,
  alertPage,
  alertSaved,
  alreadyAcknowledgedResponse,
  errorResponse,
  idParams,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { acknowledgeAlert, listAlerts } from './alerts-service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['alerts'];
/** 409: `already_acknowledged`, or `conflict` for a stale version. */
const acknowledgeConflict = z.union([alreadyAcknowledgedResponse, errorResponse]);

/** Safety alerts: the list and the acknowledgement (ADR 030). */
export const alertRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/alerts',
    {
      config: { access: 'alerts.read' },
      schema: {
        tags,
        summary:
          "Safety alerts (Hy's law, QTcF) of active patients, newest first: open or acknowledged, some patients, one unit (another unit: 404); a doctor's own unit only",
        querystring: alertListQuery,
        response: {
          200: alertPage,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listAlerts(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((alert) => alert.patient_id),
      );
      return answer;
    },
  );

  app.put(
    '/alerts/:id/acknowledge',
    {
      config: { access: 'alerts.acknowledge' },
      schema: {
        tags,
        summary:
          'Acknowledges an open safety alert with an optional comment (audited); 409 already_acknowledged, conflict',
        params: idParams,
        body: acknowledgeBody,
        response: {
          200: alertSaved,
          ...refusals,
          409: acknowledgeConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const alert = await acknowledgeAlert(db, actorOf(request), request.params.id, request.body);
      return { status: 'success' as const, alert };
    },
  );
};
