import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  auditList,
  auditQuery,
  auditVerifyAnswer,
  errorResponse,
  validationErrorResponse,
} from '@portal/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { executorOf } from '../../db/client.js';
import { verifyAuditChain } from './chain.js';
import { auditCsv, auditPdf } from './export.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';
import { noteRead } from '../../plugins/read-log.js';
import { refusals as sessionRefusals } from '../../plugins/refusals.js';

/** The list's filters without its paging: an export holds every matching entry. */
const exportQuery = auditQuery.omit({ limit: true, page: true, after: true, before: true });
const refusals = { ...sessionRefusals, 422: validationErrorResponse };

export const auditRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/audit_trial',
    {
      config: { access: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit entries, newest first: one per changed column of patient data',
        querystring: auditQuery,
        response: { 200: auditList, 404: errorResponse, 422: validationErrorResponse },
      },
    },
    // A monitor reads its reachable patients' trail only (ADR 051).
    async (request) => {
      const answer = await service.listAuditFor(db, actorOf(request), request.query);
      noteRead(
        request,
        'audit',
        answer.data.flatMap((entry) => (entry.patient ? [entry.patient.id] : [])),
      );
      return answer;
    },
  );

  app.get(
    '/audit_trial/verify',
    {
      config: { access: 'audit.export' },
      schema: {
        tags: ['audit'],
        summary:
          "Recomputes the audit trail's hash chain and names the first entry that does not hold (ADR 049)",
        response: { 200: auditVerifyAnswer, ...sessionRefusals },
      },
    },
    () => verifyAuditChain(executorOf(db)),
  );

  app.get(
    '/audit_trial/export.csv',
    {
      config: { access: 'audit.export' },
      schema: {
        tags: ['audit'],
        summary: "The audit trail with the list's filters as CSV (readable names, reasons)",
        querystring: exportQuery,
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const csv = await auditCsv(db, { ...request.query, limit: 100, page: 1 });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(csv);
    },
  );

  app.get(
    '/audit_trial/export.pdf',
    {
      config: { access: 'audit.export' },
      schema: {
        tags: ['audit'],
        summary: "The audit trail with the list's filters as PDF (readable names, reasons)",
        querystring: exportQuery,
        response: { 200: z.any(), ...refusals },
      },
    },
    async (request, reply) => {
      const pdf = await auditPdf(db, { ...request.query, limit: 100, page: 1 });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="audit.pdf"')
        .send(pdf);
    },
  );
};
