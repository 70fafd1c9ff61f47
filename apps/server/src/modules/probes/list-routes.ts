import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Samples: the paged list of every reachable sample (ADR 030). */
export const probeListRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
