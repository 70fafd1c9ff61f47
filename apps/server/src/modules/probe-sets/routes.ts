import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Kit orders: list, detail, order, accept or reject, waybills, the samples of an order (ADR 031). */
export const probeSetRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
