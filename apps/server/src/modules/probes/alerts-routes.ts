import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Safety alerts: the list and the acknowledgement (ADR 030). */
export const alertRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
