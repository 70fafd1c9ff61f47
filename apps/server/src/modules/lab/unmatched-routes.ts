import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alreadyResolvedResponse,
  discardBody,
  errorResponse,
  idParams,
  matchBody,
  unmatchedListQuery,
  unmatchedPage,
  unmatchedSaved,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { discardUnmatched, listUnmatched, matchUnmatched } from './unmatched-service.js';

const tags = ['laboratory'];
const refusals = { 401: errorResponse, 403: errorResponse, 404: errorResponse };
/** 409: `already_resolved`, `conflict` for a stale version, `patient_deleted` (match). */
const resolveConflict = z.union([alreadyResolvedResponse, errorResponse]);

/** Results that match no sample: the queue, match, discard (ADR 032). */
export const unmatchedRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/lab/unmatched',
    {
      config: { access: 'lab.unmatched' },
      schema: {
        tags,
        summary:
          'Laboratory results that match no sample (or whose patient disagrees), by status (open by default), newest first',
        querystring: unmatchedListQuery,
        response: {
          200: unmatchedPage,
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    (request) => listUnmatched(db, request.query),
  );

  app.put(
    '/lab/unmatched/:id',
    {
      config: { access: 'lab.unmatched' },
      schema: {
        tags,
        summary:
          "Attaches an open unmatched result to a sample: the value is stored on it with the flags and safety rules (audited); 404 unknown sample, 409 already_resolved, conflict, patient_deleted, 422 a medicine the sample isn't tested for",
        params: idParams,
        body: matchBody,
        response: {
          200: unmatchedSaved,
          ...refusals,
          409: resolveConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const result = await matchUnmatched(db, actorOf(request), request.params.id, request.body);
      return { status: 'success' as const, result };
    },
  );

  app.put(
    '/lab/unmatched/:id/discard',
    {
      config: { access: 'lab.unmatched' },
      schema: {
        tags,
        summary:
          'Discards an open unmatched result with a reason (required; audited); 409 already_resolved, conflict',
        params: idParams,
        body: discardBody,
        response: {
          200: unmatchedSaved,
          ...refusals,
          409: resolveConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const result = await discardUnmatched(db, actorOf(request), request.params.id, request.body);
      return { status: 'success' as const, result };
    },
  );
};
