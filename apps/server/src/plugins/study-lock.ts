import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { STUDY_LOCKED, isStudyLocked } from '../lib/study-lock.js';

/**
 * Writes that stay open while the study is locked: signing in and out (/api/auth/*), the
 * password change, the unlock; and the laboratory's HL7 endpoint, which refuses with its own
 * ACK AE (lab module) instead of JSON.
 */
const OPEN_WHILE_LOCKED = new Set(['/api/change_password', '/api/study/unlock', '/api/lab/hl7']);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * While the study is locked every write under /api answers 409 study_locked (ADR 048). Runs
 * after authentication (registered after the auth plugin), so an anonymous or forbidden call
 * still answers 401/403; one primary-key read of the setting per write, so every node sees a
 * lock at once.
 */
export const studyLockPlugin = fp((app: FastifyInstance, opts: { db: Database }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (READS.has(request.method)) return;
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/') || url.startsWith('/api/auth/') || OPEN_WHILE_LOCKED.has(url))
      return;
    if (await isStudyLocked(opts.db)) {
      // Sent as is: a route's own 409 schema may name only its own status words.
      return reply
        .code(409)
        .type('application/json; charset=utf-8')
        .serializer(JSON.stringify)
        .send({ status: STUDY_LOCKED });
    }
  });
});
