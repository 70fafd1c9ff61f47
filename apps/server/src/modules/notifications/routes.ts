import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  idParams,
  notificationPreferencesBody,
  notificationPreferencesResponse,
  notificationPreferencesSaved,
  notificationRead,
  outboxList,
  outboxQuery,
  smtpSettingBody,
  smtpSettingResponse,
  smtpSettingSaved,
  smtpTestBody,
  smtpTestFailure,
  smtpTestResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { registerNotificationJobs } from './jobs.js';
import { testMail } from './messages.js';
import * as service from './service.js';
import { SendFailure, readSmtp, saveSmtp, sendMail, smtpTransport } from './smtp.js';
import { refusals } from '../../plugins/refusals.js';

const tags = ['notifications'];

/**
 * The user's notifications (the bell; the list itself is `GET /api/notifications` without
 * `user_id`, answered by the messages module's route, whose path it shares), the e-mail choices
 * and the mail server (ADR 061, 062).
 */
export const notificationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, secrets, config } = deps;
  registerNotificationJobs(app, {
    jobs: deps.jobs,
    db,
    secrets,
    publicUrl: config.publicUrl,
    smtpCaFile: config.smtpCaFile ?? null,
    log: app.log,
  });

  app.post(
    '/notifications/:id/read',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: "Marks one of the caller's notifications read; another user's answers 404",
        params: idParams,
        response: { 200: notificationRead, ...refusals, 404: errorResponse },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await service.markRead(db, actorOf(request), request.params.id)),
    }),
  );

  app.get(
    '/notifications/outbox',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags,
        summary:
          'E-mails of one status (default failed: bounced addresses, attempts used up), with the ' +
          "server's last answer",
        querystring: outboxQuery,
        response: { 200: outboxList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.listOutbox(db, request.query),
  );

  app.get(
    '/me/notification_preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          "The caller's e-mail choices (staff and patients alike), where and in which language",
        response: { 200: notificationPreferencesResponse, ...refusals },
      },
    },
    async (request) => ({ data: await service.readPreferences(db, actorOf(request)) }),
  );

  app.put(
    '/me/notification_preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary:
          'Changes the kinds named in `email` (others keep theirs), `email_address` (empty: the ' +
          "account's own) and `language`; 409 conflict for a stale `version`",
        body: notificationPreferencesBody,
        response: {
          200: notificationPreferencesSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await service.savePreferences(db, actorOf(request), request.body),
    }),
  );

  app.get(
    '/settings/smtp',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary: 'The mail server (password never sent: password_set)',
        response: { 200: smtpSettingResponse, ...refusals },
      },
    },
    async () => ({ data: await readSmtp(db) }),
  );

  app.post(
    '/settings/smtp',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary:
          'Saves the mail server, `{value, version?}` or its fields at the top level; an empty ' +
          'password keeps the stored one. 409 conflict: a stale version; 503 secret_key_missing',
        body: smtpSettingBody,
        response: {
          200: smtpSettingSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const wrapped = 'value' in body && typeof body.value === 'object' && body.value !== null;
      const value = wrapped ? body.value : body;
      const version = wrapped && typeof body.version === 'number' ? body.version : undefined;
      return {
        status: 'success' as const,
        data: await saveSmtp(db, secrets, actorOf(request), value, version),
      };
    },
  );

  app.post(
    '/settings/smtp/test',
    {
      config: { access: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary:
          'Sends a test e-mail to the caller (or `to`) through the saved server. 502 names what ' +
          'failed: smtp_auth_failed, smtp_unreachable, smtp_tls_failed, smtp_refused; 409 ' +
          'smtp_not_configured, no_email (the caller has no address and gave none)',
        body: smtpTestBody,
        response: {
          200: smtpTestResponse,
          ...refusals,
          409: smtpTestFailure,
          422: validationErrorResponse,
          502: smtpTestFailure,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const transport = await smtpTransport(db, secrets, config.smtpCaFile);
      if (!transport) return reply.code(409).send({ status: 'smtp_not_configured' as const });
      const to = request.body.to ?? (await service.emailOf(db, actor));
      if (!to) return reply.code(409).send({ status: 'no_email' as const });
      const { language } = await service.readPreferences(db, actor);
      try {
        await sendMail(transport, { to, ...testMail(language, config.publicUrl) });
      } catch (error) {
        if (!(error instanceof SendFailure)) throw error;
        // The server's own words help the administrator; they hold no password.
        return reply.code(502).send({ status: error.status, message: error.message });
      }
      return { status: 'success' as const, to };
    },
  );
};
