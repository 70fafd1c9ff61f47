import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Shipment tracking: refresh now (the background job's work) (ADR 031). */
export const shipmentRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
