import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { credentialsSheetBody, validationErrorResponse } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { requestLocale } from '../../plugins/errors.js';
import { readSupportPhone } from '../settings/index.js';
import { loginAddress } from './address.js';
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
        response: { 200: z.any().describe('application/pdf'), 422: validationErrorResponse },
      },
    },
    async (request, reply) => {
      const address = loginAddress(request.body.kind, config.publicUrl);
      const support = await readSupportPhone(db);
      const pdf = await credentialsSheet(request.body, address, requestLocale(request), support);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', 'inline; filename="dane-logowania.pdf"')
        .send(pdf);
    },
  );
};
