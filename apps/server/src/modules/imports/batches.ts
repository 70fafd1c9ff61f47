import type { ImportBatch } from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database, Transaction } from '../../db/client.js';
import { importBatches, patients, sessions, unmatchedResults, users } from '../../db/schema.js';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { Actor } from '../../plugins/policy.js';
import { putBackResults } from '../results/index.js';

const CHUNK = 1000;
/** The discard reason of unmatched results a flush set aside (a restore reopens them). */
export const FLUSH_DISCARD_REASON = 'Usunięte wraz z importem (flush)';

export async function listBatches(db: Database): Promise<ImportBatch[]> {
  const rows = await db
    .select({ batch: importBatches, login: users.login })
    .from(importBatches)
    .leftJoin(users, eq(users.id, importBatches.created_by))
    .orderBy(desc(importBatches.id));
  return rows.map(({ batch, login }) => ({
    id: batch.id,
    mode: batch.mode,
    files: batch.files,
    counts: batch.counts,
    created_at: batch.created_at.toISOString(),
    created_by: login,
    flushed_at: batch.flushed_at?.toISOString() ?? null,
  }));
}

async function chunked(ids: number[], work: (chunk: number[]) => Promise<unknown>) {
  for (let i = 0; i < ids.length; i += CHUNK) await work(ids.slice(i, i + CHUNK));
}

/**
 * Soft-deletes what every not yet flushed batch wrote, in one transaction: imported patients
 * (and their accounts, whose sessions end) get `deleted_at` = the flush's time, imported results
 * go back to the values and sample states they replaced (newest batch first, so several batches
 * unwind to what was there before the first), the batches' open unmatched results leave the
 * queue (discarded with the flush's reason; matched or discarded ones stay as they are); the
 * batches are marked flushed at that same time, which is how a restore finds what to undo.
 */
export async function flushImports(db: Database, actor: Actor): Promise<Record<string, number>> {
  return inTransaction(db, actor.userId, async (tx) => {
    const open = await tx
      .select({ id: importBatches.id })
      .from(importBatches)
      .where(isNull(importBatches.flushed_at))
      .orderBy(asc(importBatches.id))
      .for('update');
    const ids = open.map((b) => b.id);
    if (!ids.length) return { batches: 0, patients: 0, results: 0, unmatched: 0 };
    const now = new Date();
    const removed = await tx
      .update(patients)
      .set({ deleted_at: now })
      .where(and(inArray(patients.import_batch_id, ids), isNull(patients.deleted_at)))
      .returning({ user_id: patients.user_id });
    const userIds = removed.map((p) => p.user_id);
    await chunked(userIds, async (chunk) => {
      await tx.update(users).set({ deleted_at: now }).where(inArray(users.id, chunk));
      await tx
        .update(sessions)
        .set({ revoked_at: now })
        .where(and(inArray(sessions.user_id, chunk), isNull(sessions.revoked_at)));
    });
    const results = await putBackResults(tx, ids, 'previous');
    const setAside = await tx
      .update(unmatchedResults)
      .set({
        status: 'discarded',
        discard_reason: FLUSH_DISCARD_REASON,
        resolved_at: now,
        resolved_by: actor.userId,
        updated_at: now,
      })
      .where(
        and(inArray(unmatchedResults.import_batch_id, ids), eq(unmatchedResults.status, 'open')),
      )
      .returning({ id: unmatchedResults.id });
    await tx
      .update(importBatches)
      .set({ flushed_at: now, flushed_by: actor.userId })
      .where(inArray(importBatches.id, ids));
    return {
      batches: ids.length,
      patients: removed.length,
      results,
      unmatched: setAside.length,
    };
  });
}

/**
 * Undoes the flush of one batch: its patients, its values and sample states as it left them,
 * and the unmatched results the flush set aside back in the queue. 409 `not_flushed` when it
 * was not flushed.
 */
export async function restoreBatch(db: Database, actor: Actor, id: number): Promise<void> {
  try {
    await inTransaction(db, actor.userId, (tx) => restoreIn(tx, actor, id));
  } catch (error) {
    // Meanwhile another active patient took one of the batch's e-mail addresses.
    if (isUniqueViolation(error, 'patients_email_lower_key')) throw conflict('exist_patient');
    throw error;
  }
}

async function restoreIn(tx: Transaction, _actor: Actor, id: number) {
  const [batch] = await tx
    .select()
    .from(importBatches)
    .where(eq(importBatches.id, id))
    .for('update');
  if (!batch) throw notFound();
  const flushedAt = batch.flushed_at;
  if (!flushedAt) throw conflict('not_flushed');
  const back = await tx
    .update(patients)
    .set({ deleted_at: null })
    .where(and(eq(patients.import_batch_id, id), eq(patients.deleted_at, flushedAt)))
    .returning({ user_id: patients.user_id });
  await chunked(
    back.map((p) => p.user_id),
    (chunk) => tx.update(users).set({ deleted_at: null }).where(inArray(users.id, chunk)),
  );
  await putBackResults(tx, [id], 'imported');
  await tx
    .update(unmatchedResults)
    .set({
      status: 'open',
      discard_reason: null,
      resolved_at: null,
      resolved_by: null,
      updated_at: new Date(),
    })
    .where(
      and(
        eq(unmatchedResults.import_batch_id, id),
        eq(unmatchedResults.status, 'discarded'),
        eq(unmatchedResults.discard_reason, FLUSH_DISCARD_REASON),
        eq(unmatchedResults.resolved_at, flushedAt),
      ),
    );
  await tx
    .update(importBatches)
    .set({ flushed_at: null, flushed_by: null })
    .where(eq(importBatches.id, id));
}
