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
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { accountRoutes } from '../credentials/index.js';
import * as service from './service.js';

const access = 'admins.manage' as const;

const adminAccounts = accountRoutes({
  path: '/admins',
  access,
  loginKind: 'admin',
  schemas: {
    listQuery: adminListQuery,
    list: adminList,
    item: admin,
    body: adminBody,
    updateBody: adminUpdateBody,
    saved: adminSaved,
  },
  summaries: {
    list: 'Paged list of administrators, deleted ones included',
    print:
      'Sets a new generated password and returns the login details to print; refused for the own account (409 own_account: use the password change)',
    update: 'Saves the login; 409 exist_admin (taken) or conflict (stale `version`)',
  },
  // own_account (print, delete) and last_admin (delete).
  responses: { print: { 409: errorResponse }, remove: { 409: errorResponse } },
  service: {
    list: service.listAdmins,
    get: service.getAdmin,
    create: service.createAdmin,
    update: service.updateAdmin,
    remove: service.deleteAdmin,
    restore: service.restoreAdmin,
    printLoginDetails: service.printAdminLoginDetails,
  },
});

export const adminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  app.get(
    '/admins/all',
    { config: { access }, schema: { tags: ['admins'], response: { 200: adminAll } } },
    () => service.allAdmins(db),
  );
  await adminAccounts(app, deps);
};
