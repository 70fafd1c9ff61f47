import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BATCH_MODES,
  IMPORT_MODES,
  MAX_FILE_BYTES,
  errorResponse,
  idParams,
  importBatchList,
  importError,
  importSuccess,
  restoreResult,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { readMultipart } from '../../lib/multipart.js';
import { actorOf } from '../../plugins/auth.js';
import { listBatches, restoreBatch } from './batches.js';
import { runImport } from './service.js';
import { buildTemplate } from './templates.js';

const tags = ['imports'];
/** At most this many files in one upload (each 20 MB at most). */
export const MAX_IMPORT_FILES = 10;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The data import: batches of patients or results, flush and restore, templates (ADR 032). */
export const importRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.post(
    '/data_import/:mode',
    {
      config: { access: 'imports.manage' },
      schema: {
        tags,
        summary:
          'Imports patients or results from files[0], files[1], … (xlsx, xls, xlsm, zip, csv, xml; 20 MB each, at most 10), all or nothing; flush soft-deletes what earlier batches wrote (no files needed)',
        consumes: ['multipart/form-data'],
        params: z.object({ mode: z.enum(IMPORT_MODES, { error: 'invalid' }) }),
        response: {
          200: importSuccess,
          403: errorResponse,
          413: errorResponse,
          422: z.union([importError, validationErrorResponse]),
        },
      },
    },
    async (request) => {
      const { mode } = request.params;
      const { files } = request.isMultipart()
        ? await readMultipart(request, {
            fields: z.object({}),
            fileField: /^files\[\d{1,2}\]$/,
            maxFileBytes: MAX_FILE_BYTES,
            maxFiles: MAX_IMPORT_FILES,
            minFiles: mode === 'flush' ? 0 : 1,
          })
        : mode === 'flush'
          ? { files: [] }
          : await readMultipart(request, {
              fields: z.object({}),
              fileField: /^files\[\d{1,2}\]$/,
              maxFileBytes: MAX_FILE_BYTES,
            });
      return runImport(
        db,
        actorOf(request),
        mode,
        files.map((f) => ({
          name: f.fileName.split(/[\\/]/).pop() || f.fileName,
          data: f.content,
        })),
        request.log,
      );
    },
  );

  app.get(
    '/data_import/batches',
    {
      config: { access: 'imports.manage' },
      schema: {
        tags,
        summary:
          'The import batches, newest first, with what each wrote and whether it was flushed',
        response: { 200: importBatchList, 403: errorResponse },
      },
    },
    async () => ({ data: await listBatches(db) }),
  );

  app.put(
    '/data_import/batches/:id/restore',
    {
      config: { access: 'imports.manage' },
      schema: {
        tags,
        summary:
          'Undoes the flush of one batch in one transaction: restored counts, and the patients that stay deleted because an active patient has their PESEL, e-mail or project number (409 not_flushed when it was not flushed; 409 exist_patient when such a patient kept appearing during the restore)',
        params: idParams,
        response: {
          200: restoreResult,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (request) => restoreBatch(db, actorOf(request), request.params.id),
  );

  app.get(
    '/data_import/templates/:file',
    {
      config: { access: 'imports.manage' },
      schema: {
        tags,
        summary: 'The xlsx template of an import (patient_data.xlsx or results.xlsx)',
        params: z.object({
          file: z.enum(
            BATCH_MODES.map((m) => `${m}.xlsx`) as ['patient_data.xlsx', 'results.xlsx'],
            { error: 'invalid' },
          ),
        }),
        response: {
          200: z.any().describe(XLSX_TYPE),
          403: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const mode = request.params.file === 'patient_data.xlsx' ? 'patient_data' : 'results';
      return reply
        .header('Content-Type', XLSX_TYPE)
        .header('Content-Disposition', `attachment; filename="${mode}.xlsx"`)
        .header('Cache-Control', 'private, no-store')
        .send(await buildTemplate(mode));
    },
  );
};
