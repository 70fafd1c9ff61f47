import type {
  ChangeReason,
  RecordLockType,
  SignedRecordAbilities,
  StudyLockState,
} from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import { inTransaction, markAuditReason } from '../../db/client.js';
import type { Database, Transaction } from '../../db/client.js';
import { probes, recordLocks, settings, signatures, users, visits } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import { reasonRequired } from '../../lib/reasons.js';
import { STUDY_LOCK_SETTING, readStudyLock } from '../../lib/study-lock.js';
import type { Actor } from '../../plugins/policy.js';
import { findReachableRecord, signedRecordAbilities } from '../../policies/records.js';

/**
 * Whether the record may be locked, and its patient. A record lock follows a signature (ADR 048):
 * a visit (not cancelled) or sample with a valid signature may be locked; one without answers
 * 409 `not_signed`, one that does not exist 404.
 */
export async function assertLockable(
  tx: Transaction,
  recordType: RecordLockType,
  recordId: number,
): Promise<{ patientId: number }> {
  const [row] =
    recordType === 'visit'
      ? await tx
          .select({ patientId: visits.patient_id })
          .from(visits)
          .where(and(eq(visits.id, recordId), sql`${visits.cancelled_at} is null`))
      : await tx
          .select({ patientId: probes.patient_id })
          .from(probes)
          .where(eq(probes.id, recordId));
  if (!row) throw notFound();
  // A lock closes a record someone vouched for: a valid signature first (ADR 048, ADR 050).
  const [signed] = await tx
    .select({ id: signatures.id })
    .from(signatures)
    .where(
      and(
        eq(signatures.record_type, recordType),
        eq(signatures.record_id, recordId),
        eq(signatures.status, 'valid'),
      ),
    )
    .limit(1);
  if (!signed) throw conflict('not_signed');
  return row;
}

export interface RecordLockView {
  status: 'success';
  record_type: RecordLockType;
  record_id: number;
  locked: boolean;
  lock: { locked_at: string; by: { id: number; login: string | null } | null } | null;
}

/** A record's lock, or null while it is not locked (record details and the lock answers). */
export async function readRecordLock(
  db: Database | Transaction,
  recordType: RecordLockType,
  recordId: number,
): Promise<RecordLockView['lock']> {
  const [row] = await db
    .select({ lockedAt: recordLocks.locked_at, by: recordLocks.locked_by, login: users.login })
    .from(recordLocks)
    .leftJoin(users, eq(users.id, recordLocks.locked_by))
    .where(and(eq(recordLocks.record_type, recordType), eq(recordLocks.record_id, recordId)));
  if (!row) return null;
  return {
    locked_at: row.lockedAt.toISOString(),
    by: row.by === null ? null : { id: row.by, login: row.login },
  };
}

/**
 * What a visit's or sample's detail adds about its lock (ADR 048): the lock (null while unlocked)
 * and the actor's abilities on its signatures and lock, given whether it holds any signature.
 */
export async function lockFactsOf(
  db: Database,
  actor: Actor,
  recordType: RecordLockType,
  recordId: number,
  signed: boolean,
): Promise<{ lock: RecordLockView['lock']; record_abilities: SignedRecordAbilities }> {
  const [record, lock] = await Promise.all([
    findReachableRecord(db, actor, recordType, recordId),
    readRecordLock(db, recordType, recordId),
  ]);
  const record_abilities = signedRecordAbilities(actor, record, { signed, locked: lock !== null });
  return { lock, record_abilities };
}

async function answer(
  db: Database,
  recordType: RecordLockType,
  recordId: number,
): Promise<RecordLockView> {
  const lock = await readRecordLock(db, recordType, recordId);
  return { status: 'success', record_type: recordType, record_id: recordId, locked: !!lock, lock };
}

/** Locks a record (idempotent: locking a locked record keeps its first lock). */
export async function lockRecord(
  db: Database,
  actor: Actor,
  recordType: RecordLockType,
  recordId: number,
  reason: ChangeReason | undefined,
): Promise<RecordLockView> {
  await inTransaction(db, actor.userId, async (tx) => {
    const { patientId } = await assertLockable(tx, recordType, recordId);
    if (reason) await markAuditReason(tx, reason);
    await tx
      .insert(recordLocks)
      .values({
        record_type: recordType,
        record_id: recordId,
        patient_id: patientId,
        locked_by: actor.userId,
      })
      .onConflictDoNothing();
  });
  return answer(db, recordType, recordId);
}

/** Unlocks a record; needs a reason (422 reason_required), audited with it. */
export async function unlockRecord(
  db: Database,
  actor: Actor,
  recordType: RecordLockType,
  recordId: number,
  reason: ChangeReason | undefined,
): Promise<RecordLockView> {
  if (!reason) throw reasonRequired();
  await inTransaction(db, actor.userId, async (tx) => {
    await assertLockable(tx, recordType, recordId);
    await markAuditReason(tx, reason);
    await tx
      .delete(recordLocks)
      .where(and(eq(recordLocks.record_type, recordType), eq(recordLocks.record_id, recordId)));
  });
  return answer(db, recordType, recordId);
}

async function saveStudyLock(
  db: Database,
  actor: Actor,
  value: StudyLockState,
  reason: ChangeReason | undefined,
): Promise<StudyLockState> {
  await inTransaction(db, actor.userId, async (tx) => {
    if (reason) await markAuditReason(tx, reason);
    await tx
      .insert(settings)
      .values({ key: STUDY_LOCK_SETTING, value, updated_by: actor.userId })
      .onConflictDoUpdate({
        target: settings.key,
        set: {
          value,
          updated_by: actor.userId,
          updated_at: new Date(),
          version: sql`${settings.version} + 1`,
        },
      });
  });
  return value;
}

/** Locks the whole study: every write answers 409 study_locked until unlocked. */
export async function lockStudy(db: Database, actor: Actor, reason: ChangeReason | undefined) {
  const current = await readStudyLock(db);
  if (current.locked) return current;
  return saveStudyLock(
    db,
    actor,
    {
      locked: true,
      locked_at: new Date().toISOString(),
      by: { id: actor.userId, login: actor.login },
    },
    reason,
  );
}

/** Unlocks the study; needs a reason (422 reason_required), audited with it. */
export async function unlockStudy(db: Database, actor: Actor, reason: ChangeReason | undefined) {
  if (!reason) throw reasonRequired();
  return saveStudyLock(db, actor, { locked: false, locked_at: null, by: null }, reason);
}
