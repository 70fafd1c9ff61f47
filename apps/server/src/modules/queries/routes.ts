import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  queryBody,
  queryList,
  queryListQuery,
  queryMessageBody,
  querySaved,
  validationErrorResponse,
  verificationBody,
  verificationSaved,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['monitoring'];

export const queryRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/queries',
    {
      config: { access: 'monitor.queries' },
      schema: {
        tags,
        summary: "A monitor's query on a record or one of its fields, with its first message",
        body: queryBody,
        response: { 201: querySaved, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request, reply) => {
      const query = await service.openQuery(db, actorOf(request), request.body);
      return reply.code(201).send({ status: 'success' as const, query });
    },
  );

  app.get(
    '/queries',
    {
      config: { access: 'queries.read' },
      schema: {
        tags,
        summary: 'Queries of the units within reach, newest first, with their age and thread',
        querystring: queryListQuery,
        response: { 200: queryList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.listQueries(db, actorOf(request), request.query),
  );

  app.post(
    '/queries/:id/messages',
    {
      config: { access: 'queries.read' },
      schema: {
        tags,
        summary:
          "A message in the thread: the site's answers the query (answered), a monitor's asks again (open); 409 query_closed",
        params: idParams,
        body: queryMessageBody,
        response: {
          200: querySaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      query: await service.addMessage(db, actorOf(request), request.params.id, request.body.text),
    }),
  );

  for (const [action, closed] of [
    ['close', true],
    ['reopen', false],
  ] as const) {
    app.post(
      `/queries/:id/${action}`,
      {
        config: { access: 'monitor.queries' },
        schema: {
          tags,
          summary: `The monitor ${closed ? 'closes' : 'reopens'} the query; 409 when it already is ${closed ? 'closed' : 'open'}`,
          params: idParams,
          response: { 200: querySaved, ...refusals, 409: errorResponse },
        },
      },
      async (request) => ({
        status: 'success' as const,
        query: await service.setClosed(db, actorOf(request), request.params.id, closed),
      }),
    );
  }

  app.post(
    '/verifications',
    {
      config: { access: 'monitor.verify' },
      schema: {
        tags,
        summary: 'The monitor marks a record verified against the source (a change clears it)',
        body: verificationBody,
        response: { 201: verificationSaved, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request, reply) => {
      const verified = await service.verify(
        db,
        actorOf(request),
        request.body.record_type,
        request.body.record_id,
      );
      return reply.code(201).send({ status: 'success' as const, verified });
    },
  );
};
