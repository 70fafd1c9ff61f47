import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alreadyResolvedResponse,
  discardBody,
  errorResponse,
  idParams,
  matchBody,
  matchPreview,
  matchPreviewQuery,
  unmatchedListQuery,
  unmatchedPage,
  unmatchedSaved,
  validationErrorResponse,
  wouldReplaceResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import {
  discardUnmatched,
  listUnmatched,
  matchUnmatched,
  previewMatch,
} from './unmatched-service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['laboratory'];
/** 409: `already_resolved`, `conflict` for a stale version, `patient_deleted` (match). */
const resolveConflict = z.union([alreadyResolvedResponse, errorResponse]);
/** 409 of a match: also `would_replace` with the values it would overwrite. */
const matchConflict = z.union([wouldReplaceResponse, alreadyResolvedResponse, errorResponse]);

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

  app.get(
    '/lab/unmatched/:id/preview',
    {
      config: { access: 'lab.unmatched' },
      schema: {
        tags,
        summary:
          "What matching an open result to a sample would do: the laboratory's patient beside the sample's, where they disagree, and the sample's values it would overwrite; 404 unknown result or sample, 409 already_resolved",
        params: idParams,
        querystring: matchPreviewQuery,
        response: {
          200: matchPreview,
          ...refusals,
          409: alreadyResolvedResponse,
          422: validationErrorResponse,
        },
      },
    },
    (request) => previewMatch(db, actorOf(request), request.params.id, request.query.probe_id),
  );

  app.put(
    '/lab/unmatched/:id',
    {
      config: { access: 'lab.unmatched' },
      schema: {
        tags,
        summary:
          "Attaches an open unmatched result to a sample: the value is stored on it with the flags and safety rules (audited); a value the sample already holds is overwritten only with replace: true. 404 unknown sample, 409 would_replace (with the values), already_resolved, conflict, patient_deleted, 422 a medicine the sample isn't tested for",
        params: idParams,
        body: matchBody,
        response: {
          200: unmatchedSaved,
          ...refusals,
          409: matchConflict,
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
