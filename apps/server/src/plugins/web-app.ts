import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Files the build names by their content hash (`assets/`): a new content is a new name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed files: asked again on every load (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';
/** Files under fixed names (favicon.svg): a short cache, so that a deploy shows within the hour. */
export const SHORT = 'public, max-age=3600';

/** The siblings the build writes beside each compressible file (ADR 019). */
const PRECOMPRESSED = /\.(?:br|gz)$/i;

/** Cache-Control of a served file, by what it is: a compressed sibling counts as its original. */
export function cacheControlFor(webRoot: string, filePath: string): string {
  const relative = path
    .relative(webRoot, filePath.replace(PRECOMPRESSED, ''))
    .split(path.sep)
    .join('/');
  if (relative === 'index.html') return REVALIDATE;
  if (relative.startsWith('assets/')) return IMMUTABLE;
  return SHORT;
}

/**
 * The built web app at `/` (when there is one) and the answers for unknown paths. The build
 * writes a brotli (.br) and a gzip (.gz) copy of every compressible file; @fastify/static sends
 * the best one the browser accepts with `Content-Encoding` and `Vary: Accept-Encoding`, the file
 * itself otherwise. Nothing is compressed per request.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, { webRoot }: { webRoot: string | null }) => {
    if (webRoot)
      await app.register(fastifyStatic, {
        root: webRoot,
        wildcard: false,
        index: ['index.html'],
        preCompressed: true,
        // Set per file below; send's own default (public, max-age=0) suits none of them.
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          void reply.header('Cache-Control', cacheControlFor(webRoot, filePath));
        },
        // Source maps would hand out the app's source: never served, even from a debug build.
        // The compressed copies are sent only in place of their original, never by their name.
        allowedPath: (pathName) => !/\.(?:map|br|gz)$/i.test(pathName),
      });
    // Unknown API paths answer JSON; with the web app built, other GETs get index.html so that
    // deep links such as /units/calendar/3 open the app, which then routes on the client.
    app.setNotFoundHandler((request, reply) => {
      const urlPath = request.url.split('?')[0] ?? '';
      const isAppRoute =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !urlPath.startsWith('/api') &&
        !/\.[a-z0-9]+$/i.test(urlPath);
      // index.html, compressed as accepted and marked no-cache by the static options above.
      if (webRoot && isAppRoute) return reply.sendFile('index.html');
      return reply.status(404).send({ status: 'not_found' });
    });
  },
  { name: 'web-app' },
);
