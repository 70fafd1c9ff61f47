import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParams, kitLabelQuery, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { labelsPdf, labelsZpl } from '../probes/index.js';
import { kitLabels } from './label-service.js';
import { refusalsOr404 } from '../../plugins/refusals.js';

const tags = ['probe-sets'];
/** Another unit's order or a missing one: 404; an order not accepted: 409 (ADR 035). */
const refusals = {
  ...refusalsOr404,
  409: errorResponse,
  422: validationErrorResponse,
};

/** Kit orders: the kits' labels, as ZPL for a Zebra printer and as a PDF sheet (ADR 035). */
export const probeSetLabelRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/probe-sets/:id/label.zpl',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary:
          "An accepted order's kit labels as ZPL, one label per kit printed `amount` times (0–10; default the order's labels_amount; 0 answers an empty body): 409 not_accepted",
        params: idParams,
        querystring: kitLabelQuery,
        response: { 200: z.string().describe('text/plain ZPL'), ...refusals },
      },
    },
    async (request, reply) => {
      const kits = await kitLabels(db, actorOf(request), request.params.id);
      return reply
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('Content-Disposition', `inline; filename="${kits.name}.zpl"`)
        .send(labelsZpl(kits.labels, request.query.amount ?? kits.labels_amount));
    },
  );

  app.get(
    '/probe-sets/:id/label.pdf',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary:
          "An accepted order's kit labels as a PDF, `amount` 50 × 25 mm pages per kit (1–10; default the order's labels_amount; 0 → 422 pdf_needs_a_label): 409 not_accepted",
        params: idParams,
        querystring: kitLabelQuery,
        response: { 200: z.any().describe('application/pdf'), ...refusals },
      },
    },
    async (request, reply) => {
      const kits = await kitLabels(db, actorOf(request), request.params.id);
      const pdf = await labelsPdf(kits.labels, request.query.amount ?? kits.labels_amount);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${kits.name}.pdf"`)
        .send(pdf);
    },
  );
};
