import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { credentialsSheetBody, errorResponse, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { requestLocale } from '../../plugins/errors.js';
import { readSupportPhone } from '../settings/index.js';
import { noteRead } from '../../plugins/read-log.js';
import { loginAddress } from './address.js';
import { patientOfLogin } from './patient.js';
import { credentialsSheet } from './sheet.js';

export const credentialsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, db }) => {
  app.post(
    '/credentials/pdf',
    {
      config: { access: 'credentials.print', noStore: true },
      schema: {
        tags: ['credentials'],
        summary:
          'Renders printable login details (login, password, login address, the support phone when ' +
          'set) as a PDF; stores nothing',
        body: credentialsSheetBody,
        response: {
          200: z.any().describe('application/pdf'),
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const address = loginAddress(request.body.kind, config.publicUrl);
      const support = await readSupportPhone(db);
      const pdf = await credentialsSheet(request.body, address, requestLocale(request), support);
      // A patient's sheet shows who the patient is and how to sign in as them (ADR 052).
      const patientId =
        request.body.kind === 'patient' ? await patientOfLogin(db, request.body.login) : null;
      if (patientId !== null) noteRead(request, 'credentials', [patientId]);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', 'inline; filename="dane-logowania.pdf"')
        .send(pdf);
    },
  );
};
