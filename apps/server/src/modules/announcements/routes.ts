import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';

/** Announcements to every patient: list, send, edit, delete (ADR 031). */
export const announcementRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
