import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Visits: a patient's visits and the window of the next one. */
export const patientVisitRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
