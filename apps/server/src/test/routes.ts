import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';

export interface RouteKey {
  method: HTTPMethods;
  url: string;
}

/** `GET /api/units/:id`: the key of a route in tables. */
export const routeKey = (route: RouteKey) => `${route.method} ${route.url}`;

/**
 * Wraps the Fastify factory so that every instance it creates records each route it registers
 * (an `onRoute` hook must exist before the routes, and `buildApp` creates the instance itself).
 * Used from `vi.mock('fastify')` in tests that need the real route list.
 */
export function recordingFactory<F extends (...args: never[]) => FastifyInstance>(
  factory: F,
  sink: RouteKey[],
): F {
  const wrapped = (...args: Parameters<F>) => {
    const app = factory(...args);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) sink.push({ method, url: route.url });
    });
    return app;
  };
  return Object.assign(wrapped, factory);
}
