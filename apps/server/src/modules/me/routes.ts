import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** The patient API: a patient's own messages, announcements, documents, visits, samples, kit orders (ADR 031). */
export const meRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
