import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FHIR_RESOURCE_TYPES,
  errorResponse,
  fhirExportQuery,
  idParams,
  patientCopy,
  pseudonymisedQuery,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { notFound } from '../../lib/errors.js';
import { FHIR_ORDER, fhirNdjson, fhirPatientBundle, loadFhirContext } from './fhir-service.js';
import { allowExport } from './identified.js';
import { isNull } from 'drizzle-orm';
import { patients } from '../../db/schema.js';
import { noteRead } from '../../plugins/read-log.js';
import { ODM_FILE_NAME, loadOdmMetadata, odmDocument } from './odm-service.js';
import { loadPatientCopy } from './patient-copy.js';
import { patientCopyPdf } from './patient-copy-pdf.js';
import { refusals } from '../../plugins/refusals.js';

/**
 * The CDISC ODM 1.3.2 export (ADR 032), the FHIR R4 export (ADR 055), a patient's copy and the
 * pseudonymised variants (ADR 054).
 */
export const exportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/exports/odm.xml',
    {
      config: { access: 'reports.generate' },
      schema: {
        tags: ['reports'],
        summary:
          'The study as CDISC ODM 1.3.2 (Snapshot): metadata (study events per visit ordinal, forms, item groups, items with units, range checks and code lists) and every live patient: ECG of done visits and the samples with their results. Streamed; a failure after the start aborts the download. `pseudonymised=true`: subjects keyed by their study subject id (S-{unit}-{n}) and no sample codes; without it the export is identified (needs exports.identified, logged).',
        querystring: pseudonymisedQuery,
        response: {
          200: z.any().describe('application/xml'),
          ...refusals,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const pseudonymised = request.query.pseudonymised ?? false;
      allowExport(request, 'odm', pseudonymised);
      // Read before the answer starts, so that a failure here is an ordinary 500.
      const meta = await loadOdmMetadata(db);
      // An identified export holds every live patient (ADR 052); a pseudonymised one shows no
      // identity, so it is not a read of identified data (ADR 054).
      if (!pseudonymised) {
        const shown = await db
          .select({ id: patients.id })
          .from(patients)
          .where(isNull(patients.deleted_at));
        noteRead(
          request,
          'export',
          shown.map((row) => row.id),
        );
      }
      return reply
        .header('Content-Type', 'application/xml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${ODM_FILE_NAME}"`)
        .send(Readable.from(odmDocument(db, meta, new Date(), pseudonymised)));
    },
  );

  app.get(
    '/exports/fhir',
    {
      config: { access: 'exports.fhir' },
      schema: {
        tags: ['reports'],
        summary: `HL7 FHIR R4 as NDJSON (application/fhir+ndjson), one resource a line, the types of \`type\` (comma-separated; default all: ${FHIR_RESOURCE_TYPES.join(', ')}) each together. Pseudonymised unless \`pseudonymised=false\` (identified: needs exports.identified, logged). Streamed; a failure after the start aborts the download.`,
        querystring: fhirExportQuery,
        response: {
          200: z.any().describe('application/fhir+ndjson'),
          ...refusals,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const pseudonymised = request.query.pseudonymised ?? true;
      allowExport(request, 'fhir', pseudonymised);
      const asked = new Set(request.query.type ?? FHIR_ORDER);
      const types = FHIR_ORDER.filter((type) => asked.has(type));
      const ctx = await loadFhirContext(db, pseudonymised);
      return reply
        .header('Content-Type', 'application/fhir+ndjson; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="fhir.ndjson"')
        .send(Readable.from(fhirNdjson(db, ctx, types)));
    },
  );

  app.get(
    '/patients/:id/fhir',
    {
      config: { access: 'exports.fhir' },
      schema: {
        tags: ['reports'],
        summary:
          "One live patient's FHIR R4 resources as a Bundle of type collection (with the ResearchStudy). Pseudonymised unless `pseudonymised=false` (needs exports.identified, logged).",
        params: idParams,
        querystring: pseudonymisedQuery,
        response: {
          200: z.record(z.string(), z.unknown()).describe('application/fhir+json'),
          ...refusals,
          404: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const pseudonymised = request.query.pseudonymised ?? true;
      allowExport(request, 'patient_fhir', pseudonymised, request.params.id);
      const ctx = await loadFhirContext(db, pseudonymised);
      const bundle = await fhirPatientBundle(db, ctx, request.params.id);
      if (!bundle) throw notFound();
      return reply.header('Content-Type', 'application/fhir+json; charset=utf-8').send(bundle);
    },
  );

  app.get(
    '/patients/:id/export.json',
    {
      config: { access: 'patients.export', noStore: true },
      schema: {
        tags: ['patients'],
        summary:
          "A patient's copy (GDPR art. 15 and 20): everything stored about the patient, every record with all its columns (files listed, not embedded), the audit entries and the read log's entries of the patient. Logged.",
        params: idParams,
        response: { 200: patientCopy, ...refusals, 404: errorResponse },
      },
    },
    async (request, reply) => {
      const copy = await loadPatientCopy(db, request.params.id);
      allowExport(request, 'patient_copy', false, request.params.id);
      return reply
        .header(
          'Content-Disposition',
          `attachment; filename="pacjent-${request.params.id}-kopia-danych.json"`,
        )
        .send(copy);
    },
  );

  app.get(
    '/patients/:id/export.pdf',
    {
      config: { access: 'patients.export', noStore: true },
      schema: {
        tags: ['patients'],
        summary:
          "A patient's copy as a readable PDF in Polish: the same sections as export.json. Logged.",
        params: idParams,
        response: { 200: z.any().describe('application/pdf'), ...refusals, 404: errorResponse },
      },
    },
    async (request, reply) => {
      const copy = await loadPatientCopy(db, request.params.id);
      allowExport(request, 'patient_copy', false, request.params.id);
      const pdf = await patientCopyPdf(copy);
      return reply
        .header('Content-Type', 'application/pdf')
        .header(
          'Content-Disposition',
          `attachment; filename="pacjent-${request.params.id}-kopia-danych.pdf"`,
        )
        .send(pdf);
    },
  );
};
