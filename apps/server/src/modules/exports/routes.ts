import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '@portal/shared';
import { isNull } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import { patients } from '../../db/schema.js';
import { noteRead } from '../../plugins/read-log.js';
import { ODM_FILE_NAME, loadOdmMetadata, odmDocument } from './odm-service.js';

/** The CDISC ODM 1.3.2 export (ADR 032). */
export const exportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/exports/odm.xml',
    {
      config: { access: 'reports.generate' },
      schema: {
        tags: ['reports'],
        summary:
          'The study as CDISC ODM 1.3.2 (Snapshot): metadata (study events per visit ordinal, forms, item groups, items with units, range checks and code lists) and every live patient: ECG of done visits and the samples with their results. Streamed; a failure after the start aborts the download.',
        response: {
          200: z.any().describe('application/xml'),
          401: errorResponse,
          403: errorResponse,
        },
      },
    },
    async (request, reply) => {
      // Read before the answer starts, so that a failure here is an ordinary 500.
      const meta = await loadOdmMetadata(db);
      // The export holds every live patient (ADR 052).
      const shown = await db
        .select({ id: patients.id })
        .from(patients)
        .where(isNull(patients.deleted_at));
      noteRead(
        request,
        'export',
        shown.map((row) => row.id),
      );
      return reply
        .header('Content-Type', 'application/xml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${ODM_FILE_NAME}"`)
        .send(Readable.from(odmDocument(db, meta)));
    },
  );
};
