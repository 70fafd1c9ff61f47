import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  admin,
  adminAll,
  adminBody,
  adminUpdateBody,
  adminList,
  adminListQuery,
  adminSaved,
  errorResponse,
  idParams,
  loginDetails,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { loginAddress } from '../credentials/index.js';
import * as service from './service.js';

const tags = ['admins'];
const access = 'admins.manage' as const;

export const adminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  app.get(
    '/admins',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Paged list of administrators, deleted ones included',
        querystring: adminListQuery,
        response: { 200: adminList, 422: validationErrorResponse },
      },
    },
    (request) => service.listAdmins(db, request.query),
  );

  app.get(
    '/admins/all',
    { config: { access }, schema: { tags, response: { 200: adminAll } } },
    () => service.allAdmins(db),
  );

  app.get(
    '/admins/:id',
    {
      config: { access },
      schema: { tags, params: idParams, response: { 200: admin, 404: errorResponse } },
    },
    (request) => service.getAdmin(db, request.params.id),
  );

  app.get(
    '/admins/print_login_detail/:id',
    {
      config: { access, noStore: true },
      schema: {
        tags,
        summary:
          'Sets a new generated password and returns the login details to print; refused for the own account (409 own_account: use the password change)',
        params: idParams,
        response: { 200: loginDetails, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const details = await service.printAdminLoginDetails(db, actorOf(request), request.params.id);
      return { ...details, login_url: loginAddress('admin', config.publicUrl) };
    },
  );

  app.post(
    '/admins',
    {
      config: { access },
      schema: {
        tags,
        body: adminBody,
        response: { 200: adminSaved, 409: errorResponse, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.createAdmin(db, actorOf(request), request.body),
    }),
  );

  app.put(
    '/admins/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Saves the login; 409 exist_admin (taken) or conflict (stale `version`)',
        params: idParams,
        body: adminUpdateBody,
        response: {
          200: adminSaved,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateAdmin(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/admins/restore/:id',
    {
      config: { access },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.restoreAdmin(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );

  app.delete(
    '/admins/:id',
    {
      config: { access },
      schema: {
        tags,
        params: idParams,
        response: { 200: successResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await service.deleteAdmin(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
