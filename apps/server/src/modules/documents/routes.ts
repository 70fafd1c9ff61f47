import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, panelDocumentList, text } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../plugins/auth.js';
import { listPanelDocuments } from './service.js';

/**
 * Panel documents: the doctor and patient panels' files. They are uploaded, downloaded and
 * deleted through `/api/files` (ref_type `{panel}_documents`); this lists one panel's.
 */
export const documentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/settings/documents/:panel',
    {
      config: { access: 'documents.read' },
      schema: {
        tags: ['settings'],
        summary:
          "A panel's documents, newest first: panel doctor (documents.read) or patient " +
          '(settings.manage, 403 otherwise); any other panel 404. Upload with POST /api/files ' +
          'ref_type {panel}_documents',
        // Any text: an unknown panel answers 404 like an unknown path, not 422.
        params: z.object({ panel: text({ max: 64 }) }),
        response: {
          200: panelDocumentList,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
        },
      },
    },
    (request) => listPanelDocuments(db, actorOf(request), request.params.panel),
  );
};
