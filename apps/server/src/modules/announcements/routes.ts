import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  announcementBody,
  announcementUpdateBody,
  announcementList,
  announcementSaved,
  errorResponse,
  idParams,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { refusals } from '../../plugins/refusals.js';

const tags = ['announcements'];
// A body over the 1 MiB limit is refused before the route runs, in the common error shape.
const bodyRefusals = { 413: errorResponse, 422: validationErrorResponse };

/** Announcements to every patient: list, send, edit, delete (ADR 031). */
export const announcementRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/notifications/global',
    {
      config: { access: 'announcements.read' },
      schema: {
        tags,
        summary: 'Every announcement, newest first, with its sender and how many patients read it',
        response: { 200: announcementList, ...refusals },
      },
    },
    (request) => service.listAnnouncements(db, actorOf(request)),
  );
  app.post(
    '/notifications/global',
    {
      config: { access: 'announcements.write' },
      schema: {
        tags,
        summary: 'Sends an announcement (rich text, sanitised; empty after sanitising: required)',
        body: announcementBody,
        response: { 201: announcementSaved, ...refusals, ...bodyRefusals },
      },
    },
    async (request, reply) => {
      const data = await service.sendAnnouncement(db, actorOf(request), request.body);
      return reply.status(201).send({ data });
    },
  );
  app.put(
    '/notifications/global/:id',
    {
      config: { access: 'announcements.write' },
      schema: {
        tags,
        summary:
          "Edits an announcement: a doctor only the own (403 for another's); a stale `version` " +
          'answers 409 conflict',
        params: idParams,
        body: announcementUpdateBody,
        response: {
          200: announcementSaved,
          ...refusals,
          404: errorResponse,
          409: errorResponse,
          ...bodyRefusals,
        },
      },
    },
    async (request) => ({
      data: await service.updateAnnouncement(db, actorOf(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/notifications/global/:id',
    {
      config: { access: 'announcements.write' },
      schema: {
        tags,
        summary: "Deletes an announcement: a doctor only the own (403 for another's)",
        params: idParams,
        response: { 200: successResponse, ...refusals, 404: errorResponse },
      },
    },
    async (request) => {
      await service.deleteAnnouncement(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
