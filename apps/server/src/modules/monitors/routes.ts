import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  loginDetails,
  monitor,
  monitorBody,
  monitorList,
  monitorListQuery,
  monitorSaved,
  monitorUpdateBody,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { loginAddress } from '../credentials/index.js';
import * as service from './service.js';

const tags = ['monitors'];
const access = 'monitors.manage' as const;
const refusals = { 401: errorResponse, 403: errorResponse } as const;

// Monitor accounts, managed like doctors' (ADR 051): the same shapes with `unit_ids`.
export const monitorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  app.get(
    '/monitors',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Paged list of monitors, deleted ones included',
        querystring: monitorListQuery,
        response: { 200: monitorList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.listMonitors(db, request.query),
  );

  app.get(
    '/monitors/:id',
    {
      config: { access },
      schema: {
        tags,
        params: idParams,
        response: { 200: monitor, ...refusals, 404: errorResponse },
      },
    },
    (request) => service.getMonitor(db, request.params.id),
  );

  app.get(
    '/monitors/print_login_detail/:id',
    {
      config: { access, noStore: true },
      schema: {
        tags,
        summary: 'Sets a new generated password and returns the login details to print',
        params: idParams,
        response: { 200: loginDetails, ...refusals, 404: errorResponse },
      },
    },
    async (request) => {
      const details = await service.printMonitorLoginDetails(
        db,
        actorOf(request),
        request.params.id,
      );
      // Monitors sign in on the staff login page, like doctors.
      return { ...details, login_url: loginAddress('doctor', config.publicUrl) };
    },
  );

  app.post(
    '/monitors',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Creates a monitor account (login = e-mail); 409 exist_monitor',
        body: monitorBody,
        response: {
          200: monitorSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.createMonitor(db, actorOf(request), request.body),
    }),
  );

  app.put(
    '/monitors/:id',
    {
      config: { access },
      schema: {
        tags,
        summary:
          'Saves the monitor; 409 exist_monitor (e-mail taken) or conflict (stale `version`)',
        params: idParams,
        body: monitorUpdateBody,
        response: {
          200: monitorSaved,
          ...refusals,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateMonitor(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/monitors/restore/:id',
    {
      config: { access },
      schema: {
        tags,
        params: idParams,
        response: { 200: successResponse, ...refusals, 404: errorResponse },
      },
    },
    async (request) => {
      await service.restoreMonitor(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );

  app.delete(
    '/monitors/:id',
    {
      config: { access },
      schema: {
        tags,
        params: idParams,
        response: { 200: successResponse, ...refusals, 404: errorResponse },
      },
    },
    async (request) => {
      await service.deleteMonitor(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
