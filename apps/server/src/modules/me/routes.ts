import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  idParams,
  meAnnouncementList,
  meAnnouncementQuery,
  meDocumentList,
  meMessageList,
  meProfile,
  patientCopy,
  ownProbeSetBody,
  probeList,
  probeSetList,
  probeSetSaved,
  validationErrorResponse,
  visitList,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { ownPatientId } from '../../policies/patients.js';
import { loadPatientCopy } from '../exports/index.js';
import { contentDisposition } from '../files/index.js';
import * as me from './service.js';
import { refusals } from '../../plugins/refusals.js';

/** The OpenAPI tag of the patient API; its description (how a patient app uses it) is in openapi.ts. */
export const PATIENT_API_TAG = 'patient-api';
const tags = [PATIENT_API_TAG];

/**
 * What every /api/me route may answer besides its success: 401 without a valid token, 403 for a
 * staff token (`forbidden`) or before the generated password is changed
 * (`password_change_required`).
 */

/** The patient API: a patient's own messages, announcements, documents, visits, samples, kit orders (ADR 031). */
export const meRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const access = { access: 'patient.self' } as const;

  app.get(
    '/me',
    {
      config: access,
      schema: {
        tags,
        summary: 'The own basic data, unit, doctor and the support phone number',
        response: { 200: meProfile, ...refusals },
      },
    },
    (request) => me.profile(db, actorOf(request)),
  );

  app.get(
    '/me/messages',
    {
      config: access,
      schema: {
        tags,
        summary:
          'The own messages, newest first; reading marks the unread ones read (the portal then shows them read-only)',
        response: { 200: meMessageList, ...refusals },
      },
    },
    (request) => me.readMessages(db, actorOf(request)),
  );

  app.get(
    '/me/announcements',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Announcements to every patient, newest first, paged (limit ≤ 100, page); each one answered counts as read once ("Przeczytane przez: N")',
        querystring: meAnnouncementQuery,
        response: { 200: meAnnouncementList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => me.readAnnouncements(db, actorOf(request), request.query),
  );

  app.get(
    '/me/documents',
    {
      config: access,
      schema: {
        tags,
        summary: "The patient panel's documents, newest first",
        response: { 200: meDocumentList, ...refusals },
      },
    },
    (request) => me.listDocuments(db, actorOf(request)),
  );

  app.get(
    '/me/documents/:id',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Downloads a patient panel's document under its original name (any other file id: 404)",
        params: idParams,
        response: {
          200: z.any().describe('the document (application/pdf or text/plain)'),
          ...refusals,
          404: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const file = await me.downloadDocument(db, actorOf(request), request.params.id);
      return reply
        .header('Content-Type', file.mimeType)
        .header('Content-Disposition', contentDisposition(file.name))
        .header('Cache-Control', 'private, no-store')
        .send(file.content);
    },
  );

  app.get(
    '/me/visits',
    {
      config: access,
      schema: {
        tags,
        summary: 'The own visits (not cancelled), by date',
        response: { 200: visitList, ...refusals },
      },
    },
    (request) => me.ownVisits(db, actorOf(request)),
  );

  app.get(
    '/me/probes',
    {
      config: access,
      schema: {
        tags,
        summary: 'The own samples with their results, newest first',
        response: { 200: probeList, ...refusals },
      },
    },
    (request) => me.ownProbes(db, actorOf(request)),
  );

  app.get(
    '/me/export.json',
    {
      config: { ...access, noStore: true },
      schema: {
        tags,
        summary:
          'A copy of everything the portal stores about the signed-in patient (GDPR art. 15 and 20), machine-readable; the same document an administrator produces (ADR 054)',
        response: { 200: patientCopy, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const copy = await loadPatientCopy(db, ownPatientId(actor));
      request.log.info(
        { event: 'patient_copy', kind: 'own', userId: actor.userId },
        "a patient's own copy",
      );
      return reply
        .header('Content-Disposition', 'attachment; filename="moje-dane.json"')
        .send(copy);
    },
  );

  app.get(
    '/me/probe-sets',
    {
      config: access,
      schema: {
        tags,
        summary: 'The own kit orders with their shipments, newest first',
        response: { 200: probeSetList, ...refusals },
      },
    },
    (request) => me.ownProbeSets(db, actorOf(request)),
  );

  app.post(
    '/me/probe-sets',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Orders home-sampling kits for the own record (status 0, registered; the coordinators accept or reject it)',
        body: ownProbeSetBody,
        response: {
          201: probeSetSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const probeSet = await me.orderProbeSet(db, actorOf(request), request.body);
      return reply.code(201).send({ status: 'success' as const, probe_set: probeSet });
    },
  );
};
