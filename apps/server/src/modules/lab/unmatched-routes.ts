import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Results that match no sample: the queue, match, discard (ADR 032). */
export const unmatchedRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
