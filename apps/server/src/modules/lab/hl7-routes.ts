import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@portal/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { AppError } from '../../lib/errors.js';
import { authenticateLab, receiveHl7 } from './hl7-service.js';
import { LAB_SIMULATOR_JOB, registerLabSimulatorJob } from './simulator.js';

/** An ORU^R01 with a few hundred results is tens of kilobytes; 1 MB leaves room and no more. */
const HL7_BODY_LIMIT = 1024 * 1024;
const ER7_TYPES = ['text/plain', 'x-application/hl7-v2+er7', 'application/hl7-v2'];

/** The laboratory's results connector: HL7 v2.5 ORU^R01 in, ACK out (ADR 032). */
export const hl7Routes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, secrets, jobs, config },
) => {
  // The demo's fake laboratory sends to this route over HTTP; registered only when switched on.
  if (config.labSimulator.enabled) {
    registerLabSimulatorJob(jobs, {
      db,
      secrets,
      config: config.labSimulator,
      address: () => app.server.address(),
      log: app.log,
    });
  } else {
    // A schedule kept from a start with the simulator on would go on sending its jobs.
    jobs.unschedule(LAB_SIMULATOR_JOB);
  }

  // Only in this plugin's context: every other route keeps refusing text bodies (media-types.ts).
  app.addContentTypeParser(
    ER7_TYPES,
    { parseAs: 'string', bodyLimit: HL7_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/lab/hl7',
    {
      // Public for the token check: the laboratory signs in with HTTP Basic, checked below.
      config: { access: 'public', noStore: true },
      bodyLimit: HL7_BODY_LIMIT,
      // A JSON body would reach zod as an object (422); the laboratory sends ER7 or nothing.
      preValidation: (request, _reply, done) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
        if (type && ER7_TYPES.includes(type)) done();
        else done(new AppError(415, 'error', { error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }));
      },
      schema: {
        tags: ['laboratory'],
        summary:
          'Receives one HL7 v2.5 ORU^R01 (ER7, HTTP Basic with the synevo login and password) and answers an HL7 ACK: MSA|AA, or MSA|AE|<control id>|<reason> with nothing stored. 403 while enable_results_import is off',
        consumes: ER7_TYPES,
        body: z.string().max(HL7_BODY_LIMIT),
        response: {
          200: z.string().describe('text/plain HL7 ACK (ER7)'),
          401: errorResponse,
          403: errorResponse,
          413: errorResponse,
          415: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const verdict = await authenticateLab(db, secrets, request.headers.authorization);
      if (verdict === 'unauthorized') {
        return reply
          .code(401)
          .header('WWW-Authenticate', 'Basic realm="laboratory", charset="UTF-8"')
          .send({ status: 'unauthorized', error: 'Unauthorized' });
      }
      // Refused with HTTP, not an AE: the laboratory keeps the message and sends it again later.
      if (verdict === 'disabled') {
        return reply.code(403).send({ status: 'results_import_disabled' });
      }
      const outcome = await receiveHl7(db, request.body);
      if (outcome.code === 'AE') {
        request.log.warn({ reason: outcome.reason }, 'laboratory message refused');
      }
      return reply.code(200).header('Content-Type', 'text/plain; charset=utf-8').send(outcome.ack);
    },
  );
};
