import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Samples: carriers, the number preview, creating a sample, one sample, its adverse events, a patient's samples (ADR 030). */
export const probeRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
