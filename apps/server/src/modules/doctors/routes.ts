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

const tags = ['doctors'];
const access = 'doctors.manage' as const;

export const doctorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  app.get(
    '/doctors',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Paged list of doctors, deleted ones included',
        querystring: doctorListQuery,
        response: { 200: doctorList, 422: validationErrorResponse },
      },
    },
    (request) => service.listDoctors(db, request.query),
  );

  app.get(
    '/doctors/all',
    {
      config: { access: 'doctors.lookup' },
      schema: {
        tags,
        summary:
          'Doctors that are not deleted, optionally of one unit (a doctor sees the own unit)',
        querystring: doctorAllQuery,
        response: { 200: doctorAll },
      },
    },
    (request) => service.allDoctors(db, actorOf(request), request.query.unit_id),
  );

  app.get(
    '/doctors/:id',
    {
      config: { access },
      schema: { tags, params: idParams, response: { 200: doctor, 404: errorResponse } },
    },
    (request) => service.getDoctor(db, request.params.id),
  );

  app.get(
    '/doctors/print_login_detail/:id',
    {
      config: { access, noStore: true },
      schema: {
        tags,
        summary: 'Sets a new generated password and returns the login details to print',
        params: idParams,
        response: { 200: loginDetails, 404: errorResponse },
      },
    },
    async (request) => {
      const details = await service.printDoctorLoginDetails(
        db,
        actorOf(request),
        request.params.id,
      );
      return { ...details, login_url: loginAddress('doctor', config.publicUrl) };
    },
  );

  app.post(
    '/doctors',
    {
      config: { access },
      schema: {
        tags,
        body: doctorBody,
        response: { 200: doctorSaved, 409: errorResponse, 422: validationErrorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.createDoctor(db, actorOf(request), request.body),
    }),
  );

  app.put(
    '/doctors/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Saves the doctor; 409 exist_doctor (e-mail taken) or conflict (stale `version`)',
        params: idParams,
        body: doctorUpdateBody,
        response: {
          200: doctorSaved,
          404: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.updateDoctor(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/doctors/restore/:id',
    {
      config: { access },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.restoreDoctor(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );

  app.delete(
    '/doctors/:id',
    {
      config: { access },
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.deleteDoctor(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
