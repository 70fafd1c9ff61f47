import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  reasonOrValidationError,
  errorResponse,
  idParams,
  validationErrorResponse,
  visit,
  visitNotesBody,
  visitResultsBody,
  visitSaved,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './record-service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['visits'];
/** Another unit's visit, a cancelled or a missing one: 404 (ADR 004). */

/** Visits: one visit's card and its recorded ECG (ADR 028). */
export const visitRecordRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/visits/:id',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary:
          'One visit: patient, date, ordinal, ECG with corrections and flags, notes, files, samples',
        params: idParams,
        response: { 200: visit, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const visit = await service.getVisit(db, actorOf(request), request.params.id);
      noteRead(request, 'visit', [visit.patient_id]);
      return visit;
    },
  );

  app.put(
    '/visits/:id/results',
    {
      config: { access: 'visits.write' },
      schema: {
        tags,
        summary:
          'Records the visit (done, comment, QT/RR/PQ/QRS in ms; QTcB and QTcF computed) from its day on: 409 too_early before, patient_deleted, conflict',
        params: idParams,
        body: visitResultsBody,
        response: {
          200: visitSaved,
          ...refusals,
          409: errorResponse,
          422: reasonOrValidationError,
        },
      },
    },
    async (request) => {
      const saved = await service.recordVisit(
        db,
        actorOf(request),
        request.params.id,
        request.body,
      );
      return { status: 'ok' as const, visit: saved };
    },
  );

  app.put(
    '/visits/:id/notes',
    {
      config: { access: 'visits.write' },
      schema: {
        tags,
        summary:
          "Saves the visit's notes (rich text, sanitised; empty or null clears them) by whoever " +
          'may record the visit, at any time; 409 patient_deleted, conflict (stale version)',
        params: idParams,
        body: visitNotesBody,
        response: {
          200: visitSaved,
          ...refusals,
          409: errorResponse,
          413: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const saved = await service.saveVisitNotes(
        db,
        actorOf(request),
        request.params.id,
        request.body,
      );
      return { status: 'ok' as const, visit: saved };
    },
  );
};
