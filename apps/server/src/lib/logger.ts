import type { FastifyServerOptions } from 'fastify';

/**
 * Request logs carry the path without its query string (searches hold patient names and PESEL
 * numbers) and never the Authorization header or cookies.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, path: request.url.split('?')[0] };
      },
    },
  };
}
