import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  messageBody,
  messageQuery,
  messageUpdateBody,
  patientMessageList,
  patientMessageSaved,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './service.js';

const tags = ['messages'];

/** Messages between staff and one patient (the patient's user id addresses them). */
export const messageRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/notifications',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        querystring: messageQuery,
        response: { 200: patientMessageList, 404: errorResponse },
      },
    },
    async (request) => {
      const { patientId, ...answer } = await service.listMessages(
        db,
        actorOf(request),
        request.query.user_id,
      );
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
