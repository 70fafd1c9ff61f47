import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  doctor,
  doctorAll,
  doctorAllQuery,
  doctorBody,
  doctorUpdateBody,
  doctorList,
  doctorListQuery,
  doctorSaved,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { accountRoutes } from '../credentials/index.js';
import * as service from './service.js';

const doctorAccounts = accountRoutes({
  path: '/doctors',
  access: 'doctors.manage',
  loginKind: 'doctor',
  schemas: {
    listQuery: doctorListQuery,
    list: doctorList,
    item: doctor,
    body: doctorBody,
    updateBody: doctorUpdateBody,
    saved: doctorSaved,
  },
  summaries: {
    list: 'Paged list of doctors, deleted ones included',
    print: 'Sets a new generated password and returns the login details to print',
    update: 'Saves the doctor; 409 exist_doctor (e-mail taken) or conflict (stale `version`)',
  },
  service: {
    list: service.listDoctors,
    get: service.getDoctor,
    create: service.createDoctor,
    update: service.updateDoctor,
    remove: service.deleteDoctor,
    restore: service.restoreDoctor,
    printLoginDetails: service.printDoctorLoginDetails,
  },
});

export const doctorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  // The form's picker: open to doctors too, unlike the account routes.
  app.get(
    '/doctors/all',
    {
      config: { access: 'doctors.lookup' },
      schema: {
        tags: ['doctors'],
        summary:
          'Doctors that are not deleted, optionally of one unit (a doctor sees the own unit)',
        querystring: doctorAllQuery,
        response: { 200: doctorAll },
      },
    },
    (request) => service.allDoctors(db, actorOf(request), request.query.unit_id),
  );
  await doctorAccounts(app, deps);
};
