import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Visits: patients whose visit window closed without a visit. */
export const overdueRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
