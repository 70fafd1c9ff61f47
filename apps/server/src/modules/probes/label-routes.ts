import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, labelQuery, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { labelFactsOf, labelFileName, labelPdf, labelZpl } from './label-service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['probes'];
/** Another unit's sample or a missing one: 404 (ADR 004). */

/** Samples: labels as ZPL for a Zebra printer and as a PDF sheet (ADR 030). */
export const labelRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/probes/:id/label.zpl',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary:
          'The sample label as ZPL (50 × 25 mm at 203 dpi, DataMatrix, ^PQ amount); amount 0–10, default 1; 0 answers an empty body',
        params: idParams,
        querystring: labelQuery,
        response: {
          200: z.string().describe('text/plain ZPL'),
          ...refusals,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const facts = await labelFactsOf(db, actorOf(request), request.params.id);
      return reply
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('Content-Disposition', `inline; filename="${labelFileName(facts.code, 'zpl')}"`)
        .send(labelZpl(facts, request.query.amount));
    },
  );

  app.get(
    '/probes/:id/label.pdf',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary:
          'The sample labels as a PDF, one 50 × 25 mm page per label; amount 1–10, default 1 (0 → 422: a PDF needs a page)',
        params: idParams,
        querystring: labelQuery,
        response: {
          200: z.any().describe('application/pdf'),
          ...refusals,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const facts = await labelFactsOf(db, actorOf(request), request.params.id);
      const pdf = await labelPdf(facts, request.query.amount);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${labelFileName(facts.code, 'pdf')}"`)
        .send(pdf);
    },
  );
};
