import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  recordLockAnswer,
  recordLockBody,
  studyLockBody,
  studyLockState,
  validationErrorResponse,
} from '@portal/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { readStudyLock } from '../../lib/study-lock.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { refusals as sessionRefusals, refusalsOr404 } from '../../plugins/refusals.js';

const tags = ['records'];
const refusals = {
  ...refusalsOr404,
  409: errorResponse,
  422: z.union([validationErrorResponse, errorResponse]),
};
const studyLockAnswer = studyLockState.extend({ status: z.literal('success') });

/** Record locks and the study lock (ADR 048). */
export const recordRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/records/lock',
    {
      config: { access: 'records.lock' },
      schema: {
        tags,
        summary:
          'Lock a signed visit or sample: no change at all until unlocked (409 not_signed without a valid signature)',
        body: recordLockBody,
        response: { 200: recordLockAnswer, ...refusals },
      },
    },
    (request) =>
      service.lockRecord(
        db,
        actorOf(request),
        request.body.record_type,
        request.body.record_id,
        request.body.reason,
      ),
  );

  app.post(
    '/records/unlock',
    {
      config: { access: 'records.lock' },
      schema: {
        tags,
        summary: 'Unlock a record; needs a reason (422 reason_required)',
        body: recordLockBody,
        response: { 200: recordLockAnswer, ...refusals },
      },
    },
    (request) =>
      service.unlockRecord(
        db,
        actorOf(request),
        request.body.record_type,
        request.body.record_id,
        request.body.reason,
      ),
  );

  app.get(
    '/study/lock',
    {
      // The banner shows it on every screen, the password change included.
      config: { access: 'authenticated', allowBeforePasswordChange: true },
      schema: {
        tags,
        summary: 'Whether the study is locked (every write answers 409 study_locked)',
        response: { 200: studyLockState, ...sessionRefusals },
      },
    },
    () => readStudyLock(db),
  );

  app.post(
    '/study/lock',
    {
      config: { access: 'records.lock' },
      schema: {
        tags,
        summary: 'Lock the whole study (read-only for everyone)',
        body: studyLockBody,
        response: { 200: studyLockAnswer, ...refusals },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await service.lockStudy(db, actorOf(request), request.body.reason)),
    }),
  );

  app.post(
    '/study/unlock',
    {
      config: { access: 'records.lock' },
      schema: {
        tags,
        summary: 'Unlock the study; needs a reason (422 reason_required)',
        body: studyLockBody,
        response: { 200: studyLockAnswer, ...refusals },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await service.unlockStudy(db, actorOf(request), request.body.reason)),
    }),
  );
};
