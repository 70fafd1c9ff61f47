import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** The CDISC ODM 1.3.2 export (ADR 032). */
export const exportRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
