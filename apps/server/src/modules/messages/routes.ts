import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  messageBody,
  messageQuery,
  messageUpdateBody,
  notificationList,
  notificationListQuery,
  patientMessageList,
  patientMessageSaved,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { forbidden } from '../../lib/errors.js';
import { can } from '../../plugins/policy.js';
import { listNotifications } from '../notifications/index.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './service.js';

const tags = ['messages'];

/** Messages between staff and one patient (the patient's user id addresses them). */
export const messageRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/notifications',
    {
      // Two lists share the path: with `user_id` a patient's messages (staff), without it the
      // caller's own notifications (anyone signed in, the bell; ADR 062).
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "With user_id: the patient's messages (staff; 403 otherwise). Without: the caller's " +
          'notifications, newest first, paged, with `unread`',
        querystring: messageQuery.partial().extend(notificationListQuery.shape),
        response: {
          // The notifications first: an empty message list would otherwise match both.
          200: z.union([notificationList, patientMessageList]),
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { user_id: userId, ...paging } = request.query;
      if (userId === undefined) return listNotifications(db, actor, paging);
      if (!can(actor, 'patients.read')) throw forbidden();
      const { patientId, ...answer } = await service.listMessages(db, actor, userId);
      noteRead(request, 'patient_tab', [patientId]);
      return answer;
    },
  );
  app.post(
    '/notifications',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        body: messageBody,
        response: { 200: patientMessageSaved, 404: errorResponse, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.sendMessage(db, actorOf(request), request.body),
    }),
  );
  app.put(
    '/notifications/:id',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        summary:
          'Edits an unread message (409 already_read otherwise, conflict for a stale `version`)',
        params: idParams,
        body: messageUpdateBody,
        response: {
          200: patientMessageSaved,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateMessage(db, actorOf(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/notifications/:id',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        params: idParams,
        response: { 200: successResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await service.deleteMessage(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
