import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The security headers of every answer: helmet's, with the portal's content security policy. */
export function securityHeaderOptions(secureCookies: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Mantine writes style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // PDFs are shown from blob: URLs in an iframe.
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'self'", 'blob:'],
        // Zebra Browser Print, the label printer's local service (issue 10, labels).
        connectSrc: ["'self'", 'http://127.0.0.1:9100', 'https://127.0.0.1:9101'],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The login address may be plain http inside a hospital network.
    hsts: secureCookies,
  };
}

/** The headers helmet sets with these options, found once by running it on a stand-in answer. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  // helmet's middleware only sets and removes headers on the answer (no per-request option here).
  helmet(options)({} as IncomingMessage, answer as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * helmet's security headers on every answer, computed once at start-up (ADR 057):
 * @fastify/helmet ran helmet(options), which parses the policy and builds each of its
 * middlewares, on every request (about 3 % of the plain patients page's CPU). The headers are
 * the same (security-headers.test.ts); a route may still replace one (the API docs' policy).
 */
export const securityHeadersPlugin = fp(
  (app: FastifyInstance, opts: { options: HelmetOptions }) => {
    const headers = helmetHeaders(opts.options);
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  },
);
