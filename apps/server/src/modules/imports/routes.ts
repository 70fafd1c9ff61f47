import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** The data import: batches of patients or results, flush and restore, templates (ADR 032). */
export const importRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
