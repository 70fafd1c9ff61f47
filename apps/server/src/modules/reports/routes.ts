import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  pseudonymisedQuery,
  reportBody,
  reportColumnsInOrder,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { allowExport } from '../exports/index.js';
import { probes } from '../../db/schema.js';
import { noteRead } from '../../plugins/read-log.js';
import { REPORT_FILE_NAME, reportPages, writeReport } from './report-service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The Excel report, streamed (ADR 032). */
export const reportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/generate_reports',
    {
      config: { access: 'reports.generate' },
      schema: {
        tags: ['reports'],
        summary:
          'The Excel report data.xlsx, streamed: one row per sample, the chosen columns (at least two) in the fixed order with Polish headers; none → 422 "empty", one → 422 "not_valid". A failure after the first byte aborts the download (no short file that looks whole). `?pseudonymised=true`: the patient as the study subject id (S-{unit}-{n}) and samples by id (no sample codes); without it the report is identified (needs exports.identified, logged).',
        querystring: pseudonymisedQuery,
        body: reportBody,
        response: {
          200: z.any().describe(XLSX),
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const pseudonymised = request.query.pseudonymised ?? false;
      allowExport(request, 'report', pseudonymised);
      const columns = reportColumnsInOrder(request.body.columns);
      const pages = reportPages(db);
      // The first page is read before the answer starts, so that a database that is down
      // gets an ordinary 500 rather than a download that breaks at once.
      const first = await pages.next();
      // An identified report names every patient with a sample (ADR 052); a pseudonymised one
      // shows no identity (ADR 054).
      if (!pseudonymised) {
        const shown = await db.selectDistinct({ id: probes.patient_id }).from(probes);
        noteRead(
          request,
          'report',
          shown.map((row) => row.id),
        );
      }
      // A megabyte of slack between the writer and the socket before the writer waits.
      const out = new PassThrough({ highWaterMark: 1024 * 1024 });
      async function* all() {
        if (first.done) return;
        yield first.value;
        yield* pages;
      }
      writeReport(all(), columns, out, pseudonymised).catch((error: unknown) => {
        request.log.error({ err: error }, 'report failed after the download started');
        // Destroying the stream makes Fastify destroy the socket: the transfer ends without its
        // last chunk, which every HTTP client reports as an error.
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return reply
        .header('Content-Type', XLSX)
        .header('Content-Disposition', `attachment; filename="${REPORT_FILE_NAME}"`)
        .send(out);
    },
  );
};
