import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  monitor,
  monitorBody,
  monitorList,
  monitorListQuery,
  monitorSaved,
  monitorUpdateBody,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { accountRoutes } from '../credentials/index.js';
import * as service from './service.js';

// Monitor accounts, managed like doctors' (ADR 051): the same shapes with `unit_ids`.
export const monitorRoutes: FastifyPluginAsyncZod<AppDeps> = accountRoutes({
  path: '/monitors',
  access: 'monitors.manage',
  // Monitors sign in on the staff login page, like doctors.
  loginKind: 'doctor',
  schemas: {
    listQuery: monitorListQuery,
    list: monitorList,
    item: monitor,
    body: monitorBody,
    updateBody: monitorUpdateBody,
    saved: monitorSaved,
  },
  summaries: {
    list: 'Paged list of monitors, deleted ones included',
    print: 'Sets a new generated password and returns the login details to print',
    create: 'Creates a monitor account (login = e-mail); 409 exist_monitor',
    update: 'Saves the monitor; 409 exist_monitor (e-mail taken) or conflict (stale `version`)',
  },
  service: {
    list: service.listMonitors,
    get: service.getMonitor,
    create: service.createMonitor,
    update: service.updateMonitor,
    remove: service.deleteMonitor,
    restore: service.restoreMonitor,
    printLoginDetails: service.printMonitorLoginDetails,
  },
});
