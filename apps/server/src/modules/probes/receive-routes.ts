import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Samples: the reception scan at the laboratory (ADR 030). */
export const receiveRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
