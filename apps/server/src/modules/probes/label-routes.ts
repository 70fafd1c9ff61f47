import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Samples: labels as ZPL for a Zebra printer and as a PDF sheet (ADR 030). */
export const labelRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
