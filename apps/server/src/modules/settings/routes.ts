import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  settingBody,
  settingParams,
  settingResponse,
  settingSaved,
  supportResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { readSupportPhone } from './support.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['settings'];

export const settingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, secrets }) => {
  app.get(
    '/settings/:name',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags,
        summary:
          'A setting: probe_config, synevo (password never sent: password_set), phone, visits, ' +
          'synevo_last_error_message (null until an error); a key never saved answers its default',
        params: settingParams,
        response: { 200: settingResponse, ...refusals },
      },
    },
    async (request) => ({ data: await service.readSetting(db, request.params.name) }),
  );

  app.post(
    '/settings/:name',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags,
        summary:
          'Saves a setting checked by its schema; an empty synevo password keeps the stored one. ' +
          '409 conflict: a stale version; 503 secret_key_missing: PostgreSQL without ' +
          'PORTAL_SECRET_KEY cannot store a password',
        params: settingParams,
        body: settingBody,
        response: {
          200: settingSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.saveSetting(
        db,
        secrets,
        actorOf(request),
        request.params.name,
        request.body,
      ),
    }),
  );

  app.get(
    '/support',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'The support phone number shown on the login page ("+48 600 100 200"), null while not ' +
          'set; no other setting',
        response: { 200: supportResponse },
      },
    },
    async () => ({ support: await readSupportPhone(db) }),
  );
};
