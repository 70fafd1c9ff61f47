import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { registry } from '../../lib/metrics.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

const errorBody = z.object({ status: z.string() });

/**
 * GET /metrics in the Prometheus text format (ADR 056), for the operator's scraper only: with
 * `Authorization: Bearer $METRICS_TOKEN`. Without METRICS_TOKEN it does not exist (404, as any
 * unknown path), so that a default installation shows nothing.
 */
export const metricsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config }) => {
  const token = config.metricsToken;
  const expected = token ? digest(`Bearer ${token}`) : null;
  app.get(
    '/metrics',
    {
      config: { access: 'public', noStore: true },
      schema: {
        tags: ['health'],
        summary:
          'Prometheus metrics (text format 0.0.4) with Authorization: Bearer $METRICS_TOKEN; 401 with another token or none; 404 when METRICS_TOKEN is not set',
        security: [{ bearer: [] }],
        response: {
          200: z.string().meta({ description: 'Prometheus text exposition format' }),
          401: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      if (!expected) return reply.code(404).send({ status: 'not_found' });
      // Compared as digests in constant time: neither the token nor its length leaks.
      const given = digest(request.headers.authorization ?? '');
      if (!timingSafeEqual(given, expected)) {
        return reply
          .code(401)
          .header('WWW-Authenticate', 'Bearer realm="metrics"')
          .send({ status: 'unauthorized' });
      }
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  );
};
