import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer carries a token or a password (sign-in, refresh, printed login details): no
     * browser, proxy or back button may keep a copy. Errors of such a route are not kept either.
     */
    noStore?: boolean;
  }
}

/** One place that marks token- and password-bearing answers `Cache-Control: no-store`. */
export const noStorePlugin = fp((app: FastifyInstance) => {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.noStore) void reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
});
