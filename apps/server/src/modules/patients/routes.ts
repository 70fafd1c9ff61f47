import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  reasonOrValidationError,
  errorResponse,
  idParams,
  loginDetails,
  patientAll,
  patientAllQuery,
  patientBasic,
  patientCardList,
  patientCreateBody,
  patientCreated,
  patientDetail,
  patientList,
  patientListQuery,
  patientOptions,
  patientOptionsQuery,
  patientUpdateBody,
  nextProjectNumber,
  peselQuery,
  peselStatus,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { fastOkSerializer } from '../../lib/fast-serializer.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { loginAddress } from '../credentials/index.js';
import * as commands from './commands.js';
import { listPatientCards, listPatients } from './list.js';
import * as options from './options.js';
import { nextProjectNumber as offerProjectNumber } from './project-numbers.js';
import * as queries from './queries.js';
import { refusals } from '../../plugins/refusals.js';

const tags = ['patients'];
const read = { access: 'patients.read' } as const;
const write = { access: 'patients.write' } as const;

export const patientRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  app.get(
    '/patients',
    {
      config: read,
      // The plain page is the portal's most frequent request (ADR 057).
      serializerCompiler: fastOkSerializer,
      schema: {
        tags,
        summary: 'Paged list (offset) with search by surname, first name or PESEL and filters',
        querystring: patientListQuery,
        response: {
          200: patientList,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listPatients(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((row) => row.id),
      );
      return answer;
    },
  );

  app.get(
    '/patients/cards',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The patients list's page (same query: search, filters, sort, offset paging, scope) " +
          'shaped for cards: name, PESEL, group {id, nr, name}, last and next visit date',
        querystring: patientListQuery,
        response: {
          200: patientCardList,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listPatientCards(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((row) => row.id),
      );
      return answer;
    },
  );

  app.get(
    '/patients/options',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Search-as-you-type for pickers: at most 20 reachable, not deleted patients by name or PESEL, plus those named in ids',
        querystring: patientOptionsQuery,
        response: {
          200: patientOptions,
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await options.patientOptions(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((row) => row.id),
      );
      return answer;
    },
  );

  app.get(
    '/patients/all',
    {
      config: read,
      schema: {
        tags,
        summary: 'Reachable patients that are not deleted, by surname, one page at a time',
        querystring: patientAllQuery,
        response: {
          200: patientAll,
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await options.allPatients(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((row) => row.id),
      );
      return answer;
    },
  );

  app.get(
    '/patients/next_project_number',
    {
      config: write,
      schema: {
        tags,
        summary:
          "The project number the registration wizard offers: the next of the latest series, free among active patients and never a deleted one's; not reserved (ADR 041)",
        response: { 200: nextProjectNumber, ...refusals },
      },
    },
    () => offerProjectNumber(db),
  );

  app.get(
    '/patients/validate_pesel',
    {
      config: read,
      schema: {
        tags,
        summary: 'success (valid and free), exist_patient (taken) or validation_error (invalid)',
        querystring: peselQuery,
        response: { 200: peselStatus, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({
      status: await queries.validatePesel(
        db,
        actorOf(request),
        request.query.pesel,
        request.query.except_id,
      ),
    }),
  );

  app.get(
    '/patients/print_password/:id',
    {
      config: { ...write, noStore: true },
      schema: {
        tags,
        summary: "Sets a new generated password for the patient's account and returns it to print",
        params: idParams,
        response: { 200: loginDetails, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const details = await commands.printPatientPassword(db, actorOf(request), request.params.id);
      noteRead(request, 'credentials', [request.params.id]);
      return { ...details, login_url: loginAddress('patient', config.publicUrl) };
    },
  );

  app.get(
    '/patients/:id',
    {
      config: read,
      schema: { tags, params: idParams, response: { 200: patientDetail, 404: errorResponse } },
    },
    async (request) => {
      const patient = await queries.getPatient(db, actorOf(request), request.params.id);
      noteRead(request, 'patient_card', [patient.id]);
      return patient;
    },
  );

  app.get(
    '/patients/:id/basic',
    {
      config: read,
      schema: { tags, params: idParams, response: { 200: patientBasic, 404: errorResponse } },
    },
    async (request) => {
      const patient = await queries.getPatientBasic(db, actorOf(request), request.params.id);
      noteRead(request, 'patient_tab', [patient.id]);
      return patient;
    },
  );

  app.post(
    '/patients',
    {
      config: { ...write, noStore: true },
      schema: {
        tags,
        summary:
          "Registers a patient and creates the patient's account (login and password returned once)",
        body: patientCreateBody,
        response: {
          200: patientCreated,
          403: errorResponse,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      return {
        status: 'success' as const,
        patient: {
          ...(await commands.createPatient(db, actorOf(request), request.body)),
          login_url: loginAddress('patient', config.publicUrl),
        },
      };
    },
  );

  app.put(
    '/patients/:id',
    {
      config: write,
      schema: {
        tags,
        params: idParams,
        body: patientUpdateBody,
        response: {
          200: successResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          422: reasonOrValidationError,
        },
      },
    },
    async (request) => {
      await commands.updatePatient(db, actorOf(request), request.params.id, request.body);
      return { status: 'success' as const };
    },
  );

  app.put(
    '/patients/restore/:id',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Restores a deleted patient; 409 exist_patient when an active patient has its PESEL or e-mail, project_number_taken when its project number',
        params: idParams,
        response: { 200: successResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await commands.restorePatient(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );

  app.delete(
    '/patients/:id',
    {
      config: write,
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await commands.deletePatient(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
