import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  queryIdField,
  idParams,
  noteBody,
  noteList,
  noteSaved,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './service.js';

const tags = ['notes'];

export const noteRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/patients/notes',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        summary: "A patient's doctor comments, newest first",
        querystring: z.object({ ref_id: queryIdField() }),
        response: { 200: noteList, 404: errorResponse },
      },
    },
    async (request) => {
      const answer = await service.listNotes(db, actorOf(request), request.query.ref_id);
      noteRead(request, 'patient_tab', [request.query.ref_id]);
      return answer;
    },
  );
  app.post(
    '/patients/notes',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        summary: 'Adds a comment (HTML, sanitised before it is stored)',
        body: noteBody,
        response: { 200: noteSaved, 404: errorResponse, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      note: await service.createNote(db, actorOf(request), request.body),
    }),
  );
  app.delete(
    '/patients/notes/:id',
    {
      config: { access: 'patients.write' },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.deleteNote(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
