import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_FILE_BYTES,
  PATIENT_FILE_REF_TYPES,
  errorResponse,
  fileList,
  fileSaved,
  fileUploadFields,
  queryIdField,
  idParams,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { readMultipart } from '../../lib/multipart.js';
import { actorOf } from '../../plugins/auth.js';
import { noteRead } from '../../plugins/read-log.js';
import * as service from './service.js';

const tags = ['files'];

export const fileRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/files',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        summary:
          "A patient's attachments (ref_type patient) or a visit's ECG files (ref_type visit)",
        querystring: z.object({
          ref_type: z.enum(PATIENT_FILE_REF_TYPES),
          ref_id: queryIdField(),
        }),
        response: { 200: fileList, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const { data, patientId } = await service.listFiles(
        db,
        actorOf(request),
        request.query.ref_type,
        request.query.ref_id,
      );
      noteRead(request, 'patient_tab', [patientId]);
      return { data };
    },
  );

  app.post(
    '/files',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        summary:
          'Uploads one file (multipart: file, comment, ref_type, ref_id); 20 MB at most. ref_type visit: an ECG file (pdf, png, jpg, xml) of a reachable visit; ref_type doctor_documents or patient_documents: a panel document (pdf, txt; no ref_id; settings.manage only, 403 otherwise)',
        consumes: ['multipart/form-data'],
        response: {
          200: fileSaved,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          413: errorResponse,
          422: validationErrorResponse,
        },
      },
    },
    async (request) => {
      const { fields, files } = await readMultipart(request, {
        fields: fileUploadFields,
        fileField: 'file',
        maxFileBytes: MAX_FILE_BYTES,
      });
      const [upload] = files;
      // readMultipart guarantees one file (minFiles 1); the check keeps the types honest.
      if (!upload) throw new Error('multipart upload without its file');
      const file = await service.uploadPatientFile(db, actorOf(request), {
        fileName: upload.fileName,
        content: upload.content,
        comment: fields.comment ?? null,
        refId: fields.ref_id,
        refType: fields.ref_type,
      });
      return { status: 'success' as const, file };
    },
  );

  app.get(
    '/files/:id',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        summary:
          "Downloads a file under its original name. The doctor panel's documents: documents.read; the patient panel's: settings.manage (403 otherwise)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const file = await service.downloadFile(db, actorOf(request), request.params.id);
      // A panel's document names no patient: nothing to log.
      if (file.patientId) noteRead(request, 'file', [file.patientId]);
      return reply
        .header('Content-Type', file.mimeType)
        .header('Content-Disposition', service.contentDisposition(file.name))
        .header('Cache-Control', 'private, no-store')
        .send(file.content);
    },
  );

  app.delete(
    '/files/:id',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        summary: "Deletes a file; a panel's document needs settings.manage (403 otherwise)",
        params: idParams,
        response: { 200: successResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      await service.deleteFile(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
