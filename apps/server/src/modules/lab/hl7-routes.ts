import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** The laboratory's results connector: HL7 v2.5 ORU^R01 in, ACK out (ADR 032). */
export const hl7Routes: FastifyPluginAsyncZod<AppDeps> = async () => {};
