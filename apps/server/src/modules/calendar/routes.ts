import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calendarCountQuery,
  calendarDeleteQuery,
  calendarFiltersQuery,
  calendarRuleBody,
  calendarRuleList,
  calendarRuleSaved,
  calendarRuleUpdateBody,
  calendarRulesCount,
  calendarWriteConflict,
  idParams,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['calendar'];
/** Another unit's calendar, a missing unit or rule: 404 (ADR 004, ADR 025). */

export const calendarRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/units/calendar/get_by_filters',
    {
      config: { access: 'calendar.manage' },
      schema: {
        tags,
        summary: "A date's rules of a unit and the global rules of its weekday",
        querystring: calendarFiltersQuery,
        response: { 200: calendarRuleList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.rulesOfDay(db, actorOf(request), request.query),
  );

  app.get(
    '/units/calendar/get_rules_count',
    {
      config: { access: 'calendar.manage' },
      schema: {
        tags,
        summary:
          "Rules per day of a month (count, first start, last end, whole-day block) and the unit's global rules by ISO weekday",
        querystring: calendarCountQuery,
        response: { 200: calendarRulesCount, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.rulesCount(db, actorOf(request), request.query),
  );

  app.post(
    '/units/calendar',
    {
      config: { access: 'calendar.manage' },
      schema: {
        tags,
        summary:
          'Adds a rule; 409 exist_rule for an exact duplicate, visits_booked (with the visits) when it closes hours of booked visits and confirm_booked_visits is not true (ADR 041)',
        body: calendarRuleBody,
        response: {
          201: calendarRuleSaved,
          ...refusals,
          409: calendarWriteConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const data = await service.createRule(db, actorOf(request), request.body);
      return reply.code(201).send({ status: 'success' as const, data });
    },
  );

  app.put(
    '/units/calendar/:id',
    {
      config: { access: 'calendar.manage' },
      schema: {
        tags,
        summary:
          'Changes a rule in its unit; 409 conflict for a stale `version`, exist_rule for a duplicate, visits_booked (with the visits) when it closes hours of booked visits unless confirm_booked_visits',
        params: idParams,
        body: calendarRuleUpdateBody,
        response: {
          200: calendarRuleSaved,
          ...refusals,
          409: calendarWriteConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateRule(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/units/calendar/:id',
    {
      config: { access: 'calendar.manage' },
      schema: {
        tags,
        summary:
          'Deletes a rule (switching a whole-day block off deletes its rule); deleting an unblock whose hours hold booked visits answers 409 visits_booked unless ?confirm_booked_visits=true',
        params: idParams,
        querystring: calendarDeleteQuery,
        response: {
          200: successResponse,
          ...refusals,
          409: calendarWriteConflict,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      await service.deleteRule(
        db,
        actorOf(request),
        request.params.id,
        request.query.confirm_booked_visits,
      );
      return { status: 'success' as const };
    },
  );
};
