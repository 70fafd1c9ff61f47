import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Visits: one visit's card and its recorded ECG. */
export const visitRecordRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
