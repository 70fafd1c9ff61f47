import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_FILE_BYTES,
  errorResponse,
  fileList,
  fileSaved,
  idParams,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { AppDeps } from '../../app.js';
import { invalid } from '../../lib/errors.js';
import { actorOf } from '../../plugins/auth.js';
import * as service from './service.js';

const tags = ['files'];

export const fileRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, fieldSize: 100_000, parts: 6 },
  });

  app.get(
    '/files',
    {
      config: { access: 'patients.read' },
      schema: {
        tags,
        summary: "A patient's attachments (ref_type patient)",
        querystring: z.object({
          ref_type: z.literal('patient'),
          ref_id: z.coerce.number().int().positive(),
        }),
        response: { 200: fileList, 404: errorResponse },
      },
    },
    (request) => service.listPatientFiles(db, actorOf(request), request.query.ref_id),
  );

  app.post(
    '/files',
    {
      config: { access: 'patients.write' },
      schema: {
        tags,
        summary: 'Uploads one file (multipart: file, comment, ref_type, ref_id); 20 MB at most',
        consumes: ['multipart/form-data'],
        response: { 200: fileSaved, 404: errorResponse, 422: validationErrorResponse },
      },
    },
    async (request) => {
      const part = await request.file();
      if (!part) throw invalid({ file: ['required'] });
      const content = await part.toBuffer().catch((error: unknown) => {
        if (error instanceof app.multipartErrors.RequestFileTooLargeError)
          throw invalid({ file: ['file_too_large'] });
        throw error;
      });
      const field = (name: string) => {
        const value = part.fields[name];
        return value && !Array.isArray(value) && value.type === 'field'
          ? String(value.value)
          : null;
      };
      const refType = field('ref_type') ?? 'patient';
      const refId = Number(field('ref_id'));
      if (refType !== 'patient') throw invalid({ ref_type: ['invalid'] });
      if (!Number.isInteger(refId) || refId <= 0) throw invalid({ ref_id: ['required'] });
      const file = await service.uploadPatientFile(db, actorOf(request), {
        fileName: part.filename,
        content,
        comment: field('comment'),
        refId,
      });
      return { status: 'success' as const, file };
    },
  );

  app.get(
    '/files/:id',
    {
      config: { access: 'patients.read' },
      schema: { tags, summary: 'Downloads a file under its original name', params: idParams },
    },
    async (request, reply) => {
      const file = await service.downloadFile(db, actorOf(request), request.params.id);
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
      schema: { tags, params: idParams, response: { 200: successResponse, 404: errorResponse } },
    },
    async (request) => {
      await service.deleteFile(db, actorOf(request), request.params.id);
      return { status: 'success' as const };
    },
  );
};
