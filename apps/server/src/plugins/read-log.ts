import type { ReadKind } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { accessLog } from '../db/schema.js';
import { maskIdentities, mustMask } from '../policies/identity.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What this request showed of identified patients; written before its answer leaves. */
    readLog: { kind: ReadKind; patientIds: Set<number> } | null;
  }
}

/** At most this many entries go into one INSERT (one round trip, one commit). */
const MAX_BATCH = 500;

interface Pending {
  entry: typeof accessLog.$inferInsert;
  done: (error?: unknown) => void;
}

/**
 * Group commit (ADR 052): an entry is written before the answer that showed the data leaves, so a
 * crash can never lose the entry of an answered read. Entries that arrive while a write is under
 * way wait for the next one and share it (one INSERT of many rows), so the log adds one round
 * trip to a read and never queues reads behind one another's commits.
 */
export class ReadLogWriter {
  private pending: Pending[] = [];
  private draining = false;

  constructor(private readonly db: Database) {}

  record(entry: typeof accessLog.$inferInsert): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({
        entry,
        done: (error) =>
          error
            ? reject(error instanceof Error ? error : new Error('the read log was not written'))
            : resolve(),
      });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_BATCH);
        try {
          await this.db.insert(accessLog).values(batch.map((item) => item.entry));
          for (const item of batch) item.done();
        } catch (error) {
          for (const item of batch) item.done(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}

/**
 * Records that this request shows the data of these patients (one entry per request: a second
 * call adds its patients to the first's entry). Called by the route once it holds the answer;
 * nothing is written for an empty list or an answer that fails.
 */
export function noteRead(request: FastifyRequest, kind: ReadKind, patientIds: Iterable<number>) {
  const log = (request.readLog ??= { kind, patientIds: new Set() });
  for (const id of patientIds) log.patientIds.add(id);
}

/**
 * Writes the read-access log and masks identities (ADR 052, ADR 053) for every /api route in one
 * place, so that no route can show a patient without leaving an entry or send a PESEL in clear
 * to a user who may not see it.
 */
export const readLogPlugin = fp((app: FastifyInstance, opts: { db: Database; write?: boolean }) => {
  const writer = new ReadLogWriter(opts.db);
  app.decorateRequest('readLog', null);

  app.addHook('preSerialization', async (request, _reply, payload: unknown) =>
    request.actor && mustMask(request.actor) ? maskIdentities(payload) : payload,
  );

  app.addHook('onSend', async (request, reply, payload) => {
    const log = request.readLog;
    if (
      opts.write === false ||
      !log ||
      !request.actor ||
      reply.statusCode >= 400 ||
      log.patientIds.size === 0
    ) {
      return payload;
    }
    request.readLog = null;
    // Awaited: the answer is not sent until its entry is committed (a failure answers 500).
    await writer.record({
      user_id: request.actor.userId,
      address: request.ip,
      kind: log.kind,
      patient_ids: [...log.patientIds].sort((a, b) => a - b),
    });
    return payload;
  });
});
