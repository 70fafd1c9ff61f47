import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  retentionLatestRun,
  retentionPreview,
  retentionPreviewQuery,
  retentionRunAccepted,
  retentionRunBody,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { RETENTION_JOB, registerRetentionJob } from './job.js';
import { latestRetentionRun, previewRetention, requestRetentionRun } from './service.js';
import { refusals } from '../../plugins/refusals.js';

const tags = ['retention'];
/** 422: `retention_not_set` (no years in the setting) or a validation error. */

/** Retention: the dry run, the run (a background job) and its progress (ADR 059). */
export const retentionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, jobs }) => {
  registerRetentionJob(jobs, db, app.log);

  app.get(
    '/retention/preview',
    {
      config: { access: 'retention.manage' },
      schema: {
        tags,
        summary:
          'The dry run: the patients a retention run would anonymise now (participation ended more than the setting’s years ago), paged; 422 retention_not_set',
        querystring: retentionPreviewQuery,
        response: {
          200: retentionPreview,
          ...refusals,
          422: validationErrorResponse.or(errorResponse),
        },
      },
    },
    (request) => previewRetention(db, request.query),
  );

  app.post(
    '/retention/run',
    {
      config: { access: 'retention.manage' },
      schema: {
        tags,
        summary:
          'Starts the retention job (confirm: true) and answers 202 with the queued run; 422 retention_not_set, 409 study_locked or retention_running',
        body: retentionRunBody,
        response: {
          202: retentionRunAccepted,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse.or(errorResponse),
        },
      },
    },
    async (request, reply) => {
      const run = await requestRetentionRun(db, actorOf(request));
      // Without a running queue (a test app) the run stays queued for a node that has one.
      if (jobs.running) await jobs.send(RETENTION_JOB, { run_id: run.id }, { retryLimit: 1 });
      else request.log.warn({ run: run.id }, 'job queue not running: retention run left queued');
      return reply.code(202).send({ status: 'accepted' as const, run });
    },
  );

  app.get(
    '/retention/runs/latest',
    {
      config: { access: 'retention.manage' },
      schema: {
        tags,
        summary:
          'The last retention run and its progress (total, done, status); null before the first',
        response: { 200: retentionLatestRun, ...refusals },
      },
    },
    async () => ({ run: await latestRetentionRun(db) }),
  );
};
