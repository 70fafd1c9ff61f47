import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBody,
  changePasswordResponse,
  errorResponse,
  loginBody,
  loginResponse,
  sessionUser,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import { ACCOUNT_ROLES } from '@portal/shared';
import type { AccountRole } from '@portal/shared';
import { unauthorized } from '../../lib/errors.js';
import { actorOf } from '../../plugins/auth.js';
import type { AppDeps } from '../../app-deps.js';
import * as auth from './service.js';
import type { IssuedSession } from './service.js';

export const REFRESH_COOKIE = 'portal_refresh';
export const SIGNED_IN_COOKIE = 'portal_signed_in';
const REFRESH_COOKIE_PATH = '/api/auth';

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, throttle, config }) => {
  function setRefreshCookie(reply: FastifyReply, session: IssuedSession) {
    void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      path: REFRESH_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: config.secureCookies,
      expires: session.refreshExpiresAt,
    });
    // Readable by the page and holding no secret: it only tells the web app that a refresh is
    // worth trying, so a signed-out visit does not start with a refused request.
    void reply.setCookie(SIGNED_IN_COOKIE, '1', {
      path: '/',
      sameSite: 'strict',
      secure: config.secureCookies,
      expires: session.refreshExpiresAt,
    });
  }

  function clearSessionCookies(reply: FastifyReply) {
    void reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
    void reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
  }

  const who: Record<AccountRole, { login: string; token: string; tag: string }> = {
    admin: { login: 'an administrator', token: 'an administrator', tag: 'auth' },
    doctor: { login: 'a doctor (login = e-mail)', token: 'a doctor', tag: 'auth' },
    monitor: { login: 'a monitor (login = e-mail)', token: 'a monitor', tag: 'auth' },
    iod: { login: 'a data protection officer (IOD)', token: 'an IOD', tag: 'auth' },
    // The patient app's sign-in, documented with the rest of the patient API.
    patient: {
      login: 'a patient (the printed login); the same 401 for a staff login',
      token: 'a patient',
      tag: 'patient-api',
    },
  };
  for (const role of ACCOUNT_ROLES) {
    app.post(
      `/auth/login/${role}`,
      {
        config: { access: 'public', noStore: true },
        schema: {
          tags: [who[role].tag],
          summary: `Sign in as ${who[role].login}`,
          body: loginBody,
          response: { 200: loginResponse, 401: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const session = await auth.login(db, throttle, {
          role,
          login: request.body.login,
          password: request.body.password,
          address: request.ip,
        });
        setRefreshCookie(reply, session);
        return { access_token: session.accessToken, user: session.user };
      },
    );

    app.get(
      `/auth/validate_token/${role}`,
      {
        config: { access: 'authenticated', allowBeforePasswordChange: true, noStore: true },
        schema: {
          tags: [who[role].tag],
          summary: `Check ${who[role].token}'s access token`,
          response: { 200: z.object({ user: sessionUser, access_token: z.string() }) },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        if (actor.role !== role) throw unauthorized();
        const token = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
        return { user: await auth.loadSessionUser(db, actor.userId), access_token: token };
      },
    );
  }

  app.post(
    '/auth/refresh',
    {
      config: { access: 'public', noStore: true },
      schema: {
        tags: ['auth'],
        summary: 'Exchange the refresh cookie for a new access token (rotates the cookie)',
        response: { 200: loginResponse, 401: errorResponse },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      const session = token
        ? await auth.refresh(db, token).catch((error: unknown) => {
            clearSessionCookies(reply);
            throw error;
          })
        : null;
      if (!session) {
        clearSessionCookies(reply);
        throw unauthorized();
      }
      setRefreshCookie(reply, session);
      return { access_token: session.accessToken, user: session.user };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'authenticated', allowBeforePasswordChange: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends every session of the user',
        response: { 200: successResponse },
      },
    },
    async (request, reply) => {
      await auth.logout(db, actorOf(request));
      clearSessionCookies(reply);
      return { status: 'success' as const };
    },
  );

  app.put(
    '/change_password',
    {
      config: { access: 'authenticated', allowBeforePasswordChange: true, noStore: true },
      schema: {
        tags: ['auth'],
        summary: 'Change the own password; ends every earlier session and starts a new one',
        body: changePasswordBody,
        response: { 200: changePasswordResponse, 422: validationErrorResponse },
      },
    },
    async (request, reply) => {
      const session = await auth.changePassword(db, actorOf(request), request.body);
      setRefreshCookie(reply, session);
      return { status: 'success' as const, user: session.user, access_token: session.accessToken };
    },
  );
};
