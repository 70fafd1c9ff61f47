import { errorResponse } from '@portal/shared';
import type { RouteOptions } from 'fastify';

/**
 * The refusals of a route that needs a session, as the auth plugin answers them: 401 without a
 * valid session, 403 without the route's permission or before a generated password was replaced
 * (ADR 047). Route files spread these instead of writing the pair again.
 */
export const refusals = { 401: errorResponse, 403: errorResponse } as const;
/** The same, with 404 for a record or unit out of reach (or missing). */
export const refusalsOr404 = { ...refusals, 404: errorResponse } as const;

/**
 * The refusals a route can answer before its handler runs (plugins/auth.ts): none for a public
 * route; 401 for any other; 403 too unless any signed-in user may call it before the password
 * change.
 */
export function refusalsOf(config: RouteOptions['config']): Partial<typeof refusals> {
  const access = config?.access;
  if (!access || access === 'public') return {};
  if (access === 'authenticated' && config.allowBeforePasswordChange) {
    return { 401: errorResponse };
  }
  return refusals;
}

/**
 * Declares in the route's response schema (and so in the OpenAPI) the refusals the auth plugin
 * may answer, where the route file did not: the declaration follows the decision, so no route
 * answers a 401 or 403 its documentation leaves out. A route's own declaration stays as it is.
 */
export function declareRefusals(route: RouteOptions): void {
  const implied = refusalsOf(route.config);
  if (Object.keys(implied).length === 0) return;
  const schema = (route.schema ??= {});
  const declared = (schema.response ?? {}) as Record<string, unknown>;
  schema.response = { ...implied, ...declared };
}
