import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Panel documents: the doctor and patient panels' files (ADR 031). */
export const documentRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
