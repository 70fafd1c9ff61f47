import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Samples: results entered by hand, with out-of-norm flags and safety alerts (ADR 030). */
export const probeResultsRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
