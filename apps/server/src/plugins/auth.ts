import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, forbidden, unauthorized } from '../lib/errors.js';
import { authenticate } from './session-check.js';
import { can } from './policy.js';
import type { Access, Actor } from './policy.js';
import type { Database } from '../db/client.js';
import { declareRefusals } from './refusals.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api route: who may call it. */
    access?: Access;
    /** Reachable before the user has replaced a generated password. */
    allowBeforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The signed-in actor of a route that declared it needs one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/**
 * Authenticates every /api request and applies the route's declared access through the policy
 * module. A route without a declared access level cannot even be registered.
 */
export const authPlugin = fp((app: FastifyInstance, opts: { db: Database }) => {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    if (
      route.url.startsWith('/api') &&
      !route.config?.access &&
      !route.url.startsWith('/api/docs')
    ) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access level`);
    }
    // The 401 and 403 below show in the route's response schema and the OpenAPI.
    if (route.url.startsWith('/api')) declareRefusals(route);
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const actor = await authenticate(opts.db, token);
    request.actor = actor;
    if (!actor.changedPasswordAt && !request.routeOptions.config.allowBeforePasswordChange) {
      throw new AppError(403, 'password_change_required');
    }
    if (access !== 'authenticated' && !can(actor, access)) throw forbidden();
  });
});
