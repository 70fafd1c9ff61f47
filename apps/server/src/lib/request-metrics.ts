import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  UNMATCHED_ROUTE,
  httpDuration,
  httpRequests,
  importDuration,
  reportDuration,
  signInFailures,
} from './metrics.js';

/** Routes whose refusals are failed sign-ins (401) or throttled ones (429). */
const SIGN_IN_ROUTES = /^\/api\/(auth\/login\/|lab\/hl7$)/;

/**
 * Counts one answered request (ADR 056): by the route's pattern, never the raw path, so that ids
 * in paths neither leak into the metrics nor make a series per patient.
 */
export function observeRequest(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
  const status = String(reply.statusCode);
  const seconds = reply.elapsedTime / 1000;
  const labels = { method: request.method, route, status };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
  if (SIGN_IN_ROUTES.test(route)) {
    if (reply.statusCode === 401 && route !== '/api/lab/hl7') {
      signInFailures.inc({ route, reason: 'credentials' });
    } else if (reply.statusCode === 429) {
      signInFailures.inc({ route, reason: 'throttled' });
    }
  }
  if (route === '/api/data_import/:mode') importDuration.observe({ status }, seconds);
  else if (route === '/api/generate_reports') reportDuration.observe({ status }, seconds);
}
