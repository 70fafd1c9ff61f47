import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adverseEventsBody,
  carrierList,
  errorResponse,
  pathIdField,
  idParams,
  orderLink,
  probeBody,
  probeCode,
  probeCodePreviewBody,
  probeCreated,
  probeDetail,
  probeList,
  probeSaved,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './create-service.js';
import { refusals as sessionRefusals, refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['probes'];
/** Another unit's sample or patient and a missing one: 404 (ADR 004). */
const patientParams = z.object({ patient_id: pathIdField() });

/** Samples: carriers, the number preview, creating a sample, one sample, its adverse events, a patient's samples (ADR 030). */
export const probeRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/probes/carriers',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary:
          'The visible carriers (container types) a sample can travel in, by name, with the materials each is meant for',
        response: { 200: carrierList, ...sessionRefusals },
      },
    },
    async () => ({ data: await service.listCarriers(db) }),
  );

  app.get(
    '/probes/order_link',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary: "The postal service's page for ordering a courier (setting shipping)",
        response: { 200: orderLink, ...sessionRefusals },
      },
    },
    () => service.orderLink(db),
  );

  app.post(
    '/probes/generate_code/:patient_id',
    {
      config: { access: 'probes.write' },
      schema: {
        tags,
        summary:
          "Previews the number the patient's next sample would get from the form as it is; never reserves it",
        params: patientParams,
        body: probeCodePreviewBody,
        response: { 200: probeCode, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.previewCode(db, actorOf(request), request.params.patient_id, request.body),
  );

  app.post(
    '/probes',
    {
      config: { access: 'probes.write' },
      schema: {
        tags,
        summary:
          'Creates a sample with its number built from the saved configuration: 409 patient_deleted; 422 on an unknown visit, medicine or carrier, a future date',
        body: probeBody,
        response: {
          201: probeCreated,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const created = await service.createProbe(db, actorOf(request), request.body);
      return reply.code(201).send({ status: 'success' as const, probe: created });
    },
  );

  app.get(
    '/probes/:id',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary:
          "One sample with its results, reference ranges, out-of-norm flags and the laboratory's refusals of its results",
        params: idParams,
        response: { 200: probeDetail, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const probe = await service.getProbe(db, actorOf(request), request.params.id);
      noteRead(request, 'probe', [probe.patient_id]);
      return probe;
    },
  );

  app.put(
    '/probes/:id',
    {
      config: { access: 'probes.write' },
      schema: {
        tags,
        summary:
          "The sample's adverse events (sanitised rich text; empty clears them): 409 patient_deleted, conflict",
        params: idParams,
        body: adverseEventsBody,
        response: {
          200: probeSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const saved = await service.saveAdverseEvents(
        db,
        actorOf(request),
        request.params.id,
        request.body,
      );
      return { status: 'success' as const, probe: saved };
    },
  );

  app.get(
    '/patients/:id/probes',
    {
      config: { access: 'probes.read' },
      schema: {
        tags,
        summary: "A patient's samples, newest first",
        params: idParams,
        response: { 200: probeList, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const answer = await service.patientProbes(db, actorOf(request), request.params.id);
      noteRead(request, 'patient_tab', [request.params.id]);
      return answer;
    },
  );
};
