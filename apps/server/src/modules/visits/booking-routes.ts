import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  nextVisitWindow,
  notAvailableResponse,
  slotsQuery,
  slotsResponse,
  successResponse,
  validationErrorResponse,
  visitBody,
  visitUpdateBody,
  visitList,
  visitPage,
  visitSaved,
  visitsCount,
  visitsCountQuery,
  visitsQuery,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { bookVisit, cancelVisit, nextVisitWindow as windowOf, rescheduleVisit } from './booking.js';
import { listVisits, visitsCountOfMonth, visitsOfDay } from './day-lists.js';
import { unitDaySlots } from './slots-service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['visits'];
/** Another unit's patient, visit or calendar and a missing one all answer 404 (ADR 004). */
/** `not_available` for a closed, taken, weekend, past or off-grid slot; other words below. */
const refused409 = notAvailableResponse.or(errorResponse);

/** Visits: slots, booking, rescheduling, cancelling, day lists and month counts (ADR 027). */
// Fastify plugins are async by contract even when they only declare routes (as routes.ts files).
export const bookingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/units/:id/slots',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary:
          "Every open slot of a unit's day (HH:MM:SS), booked or free; empty on weekends, past and blocked days",
        params: idParams,
        querystring: slotsQuery,
        response: { 200: slotsResponse, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const answer = await unitDaySlots(
        db,
        actorOf(request),
        request.params.id,
        request.query.date,
      );
      const booked = answer.data.flatMap((slot) => (slot.visit ? [slot.visit.patient_id] : []));
      noteRead(request, 'search', booked);
      return answer;
    },
  );

  app.post(
    '/visits',
    {
      config: { access: 'visits.write' },
      schema: {
        tags,
        summary:
          "Books a slot of the patient's unit; 409 not_available (closed, taken, weekend, past, off the grid) or patient_deleted; 422 doctor_not_in_unit, window_reason_required",
        body: visitBody,
        response: { 200: visitSaved, ...refusals, 409: refused409, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      visit: await bookVisit(db, actorOf(request), request.body),
    }),
  );

  app.put(
    '/visits/:id',
    {
      config: { access: 'visits.write' },
      schema: {
        tags,
        summary:
          'Moves an upcoming visit to another slot; 409 not_available, conflict (stale version), visit_done, visit_past, patient_deleted',
        params: idParams,
        body: visitUpdateBody,
        response: { 200: visitSaved, ...refusals, 409: refused409, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      visit: await rescheduleVisit(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/visits/:id',
    {
      config: { access: 'visits.write' },
      schema: {
        tags,
        summary:
          'Cancels an upcoming visit (kept with cancelled_at, its slot freed); 409 visit_done, visit_past, patient_deleted',
        params: idParams,
        response: {
          200: successResponse,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      await cancelVisit(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );

  app.get(
    '/visits',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary:
          "With `date`: that day's live visits ({data}, all of them, by time). Without it: " +
          'the live visits within reach, paged ({data, total, total_kind}), filtered by ' +
          'unit_id, doctor_id and the days from..to (422 when invalid or from is after to), ' +
          'oldest first by date and start. Another unit (for a doctor) or a missing one: 404',
        querystring: visitsQuery,
        // The paged shape first: an answer is checked against each in turn.
        response: { 200: visitPage.or(visitList), ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const { date, ...rest } = request.query;
      const answer =
        date === undefined
          ? await listVisits(db, actorOf(request), rest)
          : await visitsOfDay(db, actorOf(request), { ...rest, date });
      noteRead(
        request,
        'search',
        answer.data.map((visit) => visit.patient_id),
      );
      return answer;
    },
  );

  app.get(
    '/visits/count',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary: 'Live visits per day of a month, of one unit or of every unit within reach',
        querystring: visitsCountQuery,
        response: { 200: visitsCount, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => visitsCountOfMonth(db, actorOf(request), request.query),
  );

  app.get(
    '/patients/:id/visit_window',
    {
      config: { access: 'visits.read' },
      schema: {
        tags,
        summary:
          "The window of the patient's next visit number (null before the first visit and past the schedule)",
        params: idParams,
        response: { 200: nextVisitWindow, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => windowOf(db, actorOf(request), request.params.id),
  );
};
