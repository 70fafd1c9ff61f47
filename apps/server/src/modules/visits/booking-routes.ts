import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Visits: slots, booking, rescheduling, cancelling, day lists and month counts. */
export const bookingRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
