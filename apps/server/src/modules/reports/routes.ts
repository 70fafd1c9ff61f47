import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** The Excel report, streamed (ADR 032). */
export const reportRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
