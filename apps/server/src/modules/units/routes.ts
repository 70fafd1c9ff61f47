import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  successResponse,
  unit,
  unitAll,
  unitAllQuery,
  unitBody,
  unitList,
  unitListQuery,
  unitSaved,
  unitUpdateBody,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';

const tags = ['units'];

export const unitRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/units',
    {
      config: { access: 'units.read' },
      schema: {
        tags,
        summary: 'Paged list of care units, deleted ones included',
        querystring: unitListQuery,
        response: { 200: unitList, 422: validationErrorResponse },
      },
    },
    (request) => service.listUnits(db, request.query),
  );

  app.get(
    '/units/all',
    {
      config: { access: 'units.read' },
      schema: {
        tags,
        summary: 'Every unit that is not deleted; `reachable=1`: only those within reach',
        querystring: unitAllQuery,
        response: { 200: unitAll, 422: validationErrorResponse },
      },
    },
    (request) =>
      service.allUnits(db, request.query.reachable === '1' ? actorOf(request) : undefined),
  );

  app.get(
    '/units/:id',
    {
      config: { access: 'units.read' },
      schema: { tags, params: idParams, response: { 200: unit, 404: errorResponse } },
    },
    (request) => service.getUnit(db, request.params.id),
  );

  app.post(
    '/units',
    {
      config: { access: 'units.manage' },
      schema: {
        tags,
        body: unitBody,
        response: { 200: unitSaved, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.createUnit(db, request.body),
    }),
  );

  app.put(
    '/units/:id',
    {
      config: { access: 'units.manage' },
      schema: {
        tags,
        summary: 'Saves the unit; 409 conflict when `version` is not the stored one',
        params: idParams,
        body: unitUpdateBody,
        response: {
          200: unitSaved,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateUnit(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/units/restore/:id',
    {
      config: { access: 'units.manage' },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.restoreUnit(db, request.params.id);
      return { status: 'success' as const };
    },
  );

  app.delete(
    '/units/:id',
    {
      config: { access: 'units.manage' },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.deleteUnit(db, request.params.id);
      return { status: 'success' as const };
    },
  );
};
