import { maskPesel } from '@portal/shared';
import type { ImportBatch, RestoreResult, RestoreSkipReason } from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { inTransaction, markAuditSource } from '../../db/client.js';
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
    await markAuditSource(tx, 'flush');
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

/** How often a restore checks again after a patient appeared between its check and its write. */
const RESTORE_ATTEMPTS = 3;

/**
 * Undoes the flush of one batch, in one transaction: its patients, except those an active patient
 * has replaced since (the same PESEL, e-mail or project number: a corrected file imported again,
 * or a registration), its values and sample states as it left them, and the unmatched results
 * the flush set aside back in the queue. Answers what came back and who stayed deleted, and why.
 * 409 `not_flushed` when it was not flushed.
 */
export async function restoreBatch(db: Database, actor: Actor, id: number): Promise<RestoreResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, actor.userId, async (tx) => {
        await markAuditSource(tx, 'restore');
        return restoreIn(tx, id);
      });
    } catch (error) {
      // Someone took a PESEL, e-mail or project number between the check and the write (the
      // unique indexes among active patients refused it): check again, now that it is committed.
      // Only patients and their accounts change their unique keys here.
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= RESTORE_ATTEMPTS) throw conflict('exist_patient');
    }
  }
}

/**
 * The batch's flushed patients, each with the first reason it cannot come back (null: it can):
 * an active patient with the same PESEL, e-mail (any case) or project number (compared by the
 * database's `portal_participant_key`, as its unique index does, ADR 041), or an earlier patient
 * of the same batch with that project number (older batches could share one).
 */
async function flushedPatients(tx: Transaction, id: number, flushedAt: Date) {
  // Written out with the table's name: drizzle leaves a column unqualified in a one-table select,
  // where the subqueries' own `a` would take it.
  const active = sql`a.deleted_at is null and a.id <> "patients"."id"`;
  return tx
    .select({
      id: patients.id,
      user_id: patients.user_id,
      firstname: patients.firstname,
      surname: patients.surname,
      pesel: patients.pesel,
      reason: sql<RestoreSkipReason | null>`case
        when exists (select 1 from patients a where ${active} and a.pesel = "patients"."pesel")
          then 'pesel_taken'
        when "patients"."email" is not null and exists (select 1 from patients a
          where ${active} and a.email is not null and lower(a.email) = lower("patients"."email"))
          then 'email_taken'
        when portal_participant_key("patients"."project_number") <> ''
          and exists (select 1 from patients a
            where (${active} or (a.import_batch_id = ${id} and a.deleted_at = ${flushedAt}
                and a.id < "patients"."id"))
              and portal_participant_key(a.project_number)
                = portal_participant_key("patients"."project_number"))
          then 'project_number_taken'
      end`,
    })
    .from(patients)
    .where(and(eq(patients.import_batch_id, id), eq(patients.deleted_at, flushedAt)))
    .orderBy(asc(patients.id))
    .for('update', { of: patients });
}

async function restoreIn(tx: Transaction, id: number): Promise<RestoreResult> {
  const [batch] = await tx
    .select()
    .from(importBatches)
    .where(eq(importBatches.id, id))
    .for('update');
  if (!batch) throw notFound();
  const flushedAt = batch.flushed_at;
  if (!flushedAt) throw conflict('not_flushed');
  const flushed = await flushedPatients(tx, id, flushedAt);
  const back = flushed.filter((p) => p.reason === null);
  await chunked(
    back.map((p) => p.id),
    (chunk) => tx.update(patients).set({ deleted_at: null }).where(inArray(patients.id, chunk)),
  );
  await chunked(
    back.map((p) => p.user_id),
    (chunk) => tx.update(users).set({ deleted_at: null }).where(inArray(users.id, chunk)),
  );
  const results = await putBackResults(tx, [id], 'imported');
  const reopened = await tx
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
    )
    .returning({ id: unmatchedResults.id });
  await tx
    .update(importBatches)
    .set({ flushed_at: null, flushed_by: null })
    .where(eq(importBatches.id, id));
  const restored: Record<string, number> =
    batch.mode === 'patient_data'
      ? { patients: back.length }
      : { results, unmatched: reopened.length };
  return {
    status: 'success',
    restored,
    skipped: flushed.flatMap((p) =>
      p.reason === null
        ? []
        : [
            {
              patient_id: p.id,
              firstname: p.firstname,
              surname: p.surname,
              pesel_masked: maskPesel(p.pesel),
              reason: p.reason,
            },
          ],
    ),
  };
}
