import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  pathIdField,
  idParams,
  kitIdParams,
  probeList,
  probeSet,
  probeSetBody,
  probeSetDecisionBody,
  probeSetList,
  probeSetListQuery,
  probeSetPage,
  probeSetSaved,
  trackingBody,
  validationErrorResponse,
} from '@portal/shared';
import type { ProbeSetBody } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import { createProbeSet } from './create-service.js';
import { listProbeSets } from './list.js';
import * as service from './service.js';
import { refusalsOr404 as refusals } from '../../plugins/refusals.js';

const tags = ['probe-sets'];
/** Another unit's order, kit or patient and a missing one: 404 (ADR 004). */
const patientParams = z.object({ patient_id: pathIdField() });

/** Kit orders: list, detail, order, accept or reject, waybills, the samples of an order (ADR 031). */
export const probeSetRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, jobs }) => {
  app.get(
    '/probe-sets',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary:
          'Kit orders of the reachable patients (a doctor: the own unit), paged, sorted and filtered by patient, created day (Warsaw), status and patient name',
        querystring: probeSetListQuery,
        response: {
          200: probeSetPage,
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const answer = await listProbeSets(db, actorOf(request), request.query);
      noteRead(
        request,
        'search',
        answer.data.map((set) => set.patient_id),
      );
      return answer;
    },
  );

  const orderSchema = (summary: string) => ({
    tags,
    summary,
    body: probeSetBody,
    response: {
      201: probeSetSaved,
      ...refusals,
      409: errorResponse,
      422: validationErrorResponse,
    },
  });
  const order = async (request: FastifyRequest & { body: ProbeSetBody }, reply: FastifyReply) => {
    const created = await createProbeSet(db, actorOf(request), request.body);
    return reply.code(201).send({ status: 'success' as const, probe_set: created });
  };

  app.post(
    '/probe-sets',
    {
      config: { access: 'probe_sets.order' },
      schema: orderSchema(
        'Orders kits for a reachable patient (one kit row per kit, status registered): 409 patient_deleted',
      ),
    },
    order,
  );

  app.put(
    '/probe-sets/patient-sets',
    {
      config: { access: 'probe_sets.order' },
      schema: orderSchema(
        "The patient card's path for ordering kits from the patient card: the same as POST /probe-sets",
      ),
    },
    order,
  );

  app.get(
    '/probe-sets/patient-sets/:patient_id',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary: "A reachable patient's kit orders with their kits and shipments, newest first",
        params: patientParams,
        response: { 200: probeSetList, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const answer = await service.patientProbeSets(
        db,
        actorOf(request),
        request.params.patient_id,
      );
      noteRead(request, 'patient_tab', [request.params.patient_id]);
      return answer;
    },
  );

  app.get(
    '/probe-sets/probes/:id',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary: "The samples drawn with a reachable order's kits, newest first",
        params: idParams,
        response: { 200: probeList, ...refusals, 422: validationErrorResponse },
      },
    },
    (request) => service.probeSetProbes(db, actorOf(request), request.params.id),
  );

  app.put(
    '/probe-sets/tracking/:id',
    {
      config: { access: 'probe_sets.manage' },
      schema: {
        tags,
        summary:
          "A kit's waybill (a new one clears the kit's status and history and queues a refresh): 409 not_accepted, conflict, patient_deleted",
        params: kitIdParams,
        body: trackingBody,
        response: {
          200: probeSetSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const saved = await service.saveTracking(
        db,
        actorOf(request),
        request.params.id,
        request.body,
        jobs,
        request.log,
      );
      return { status: 'success' as const, probe_set: saved };
    },
  );

  app.get(
    '/probe-sets/:id',
    {
      config: { access: 'probe_sets.read' },
      schema: {
        tags,
        summary: 'One reachable kit order with its kits, their shipments and tracking histories',
        params: idParams,
        response: { 200: probeSet, ...refusals, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const set = await service.getProbeSet(db, actorOf(request), request.params.id);
      noteRead(request, 'patient_tab', [set.patient_id]);
      return set;
    },
  );

  app.put(
    '/probe-sets/:id',
    {
      config: { access: 'probe_sets.manage' },
      schema: {
        tags,
        summary:
          'Accepts ({status:1}) or rejects ({status:2, reason}) a registered order: 409 already_decided, conflict, patient_deleted',
        params: idParams,
        body: probeSetDecisionBody,
        response: {
          200: probeSetSaved,
          ...refusals,
          409: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const saved = await service.decideProbeSet(
        db,
        actorOf(request),
        request.params.id,
        request.body,
      );
      return { status: 'success' as const, probe_set: saved };
    },
  );
};
