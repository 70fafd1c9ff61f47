import type { Signature, SignatureBody, SignedRecordType } from '@portal/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { signatureBody } from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable, Transaction } from '../../db/client.js';
import { signatures, users } from '../../db/schema.js';
import { AppError, conflict, invalid, isUniqueViolation } from '../../lib/errors.js';
import type { LoginThrottle } from '../../lib/login-throttle.js';
import { verifyPassword } from '../../lib/passwords.js';
import { peopleOf, personFrom } from '../../lib/people.js';
import { assertPatientActive } from '../../policies/patients.js';
import { findReachableRecord } from '../../policies/records.js';
import type { Actor } from '../../plugins/policy.js';
import { contentHash, signedContent } from './content.js';

type SignatureRow = typeof signatures.$inferSelect;
export type { SignatureBody };

async function present(db: Queryable, rows: SignatureRow[]): Promise<Signature[]> {
  const people = await peopleOf(
    db,
    rows.map((row) => row.signer_id),
  );
  return rows.map((row) => {
    const person = personFrom(people, row.signer_id);
    const signer = { id: person.id, firstname: person.firstname, surname: person.surname };
    return {
      id: row.id,
      signer,
      meaning: row.meaning,
      signed_at: row.signed_at.toISOString(),
      content_hash: row.content_hash,
      status: row.status,
      invalidated_at: row.invalidated_at?.toISOString() ?? null,
    };
  });
}

/** A record's signatures, valid and invalidated, oldest first (for its detail answer). */
export async function signaturesOf(
  db: Queryable,
  type: SignedRecordType,
  id: number,
): Promise<Signature[]> {
  const rows = await db
    .select()
    .from(signatures)
    .where(and(eq(signatures.record_type, type), eq(signatures.record_id, id)))
    .orderBy(asc(signatures.id));
  return present(db, rows);
}

/** GET /api/signatures: a reachable record's signatures (another unit's record: 404). */
export async function listSignatures(
  db: Database,
  actor: Actor,
  type: SignedRecordType,
  id: number,
): Promise<{ data: Signature[] }> {
  await findReachableRecord(db, actor, type, id);
  return { data: await signaturesOf(db, type, id) };
}

/**
 * Signs a visit card or a sample's results (ADR 050; 21 CFR 11.200): the signer is the session's
 * user and the password is entered again, every time, checked like a sign-in (the same throttle,
 * 429 when locked; a wrong one 422 on `password`). The password is hashed before the transaction
 * (PGlite has one connection). In the transaction the record is read under a share lock and its
 * canonical content hashed, so an edit running at the same time either comes first (and is
 * signed) or waits and then invalidates the signature. Only a recorded visit or a sample with
 * results holds something to sign (409 `not_signable`); a second valid signature of the same
 * signer and meaning answers 409 `already_signed` (a unique index decides, also in parallel).
 */
export async function sign(
  db: Database,
  throttle: LoginThrottle,
  actor: Actor,
  body: z.output<typeof signatureBody>,
  address: string,
): Promise<Signature> {
  const record = await findReachableRecord(db, actor, body.record_type, body.record_id);
  const reservation = await throttle.reserve(actor.login, address);
  if (!reservation.allowed) {
    throw new AppError(429, 'too_many_attempts', { retry_after: reservation.retryAfter });
  }
  const [account] = await db
    .select({ hash: users.password_hash })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!account || !(await verifyPassword(account.hash, body.password))) {
    throw invalid({ password: ['wrong_password'] });
  }
  await throttle.forgive(reservation);
  assertPatientActive({ deleted_at: record.patientDeletedAt });
  if (!record.holdsData) throw conflict('not_signable');
  try {
    return await inTransaction(db, actor.userId, (tx) =>
      recordSignature(tx, actor.userId, body, record.patientId),
    );
  } catch (error) {
    if (isUniqueViolation(error, 'signatures_valid_key')) throw conflict('already_signed');
    throw error;
  }
}

/**
 * Stores the signature of a record as it is now, in the caller's transaction. The one writer of
 * signatures: `sign` calls it once the password was checked, the demo for its signed records.
 */
export async function recordSignature(
  tx: Transaction,
  signerId: number,
  body: { record_type: SignedRecordType; record_id: number; meaning: Signature['meaning'] },
  patientId: number,
): Promise<Signature> {
  const content = await signedContent(tx, body.record_type, body.record_id);
  if (!content) throw conflict('not_signable');
  const [row] = await tx
    .insert(signatures)
    .values({
      record_type: body.record_type,
      record_id: body.record_id,
      patient_id: patientId,
      signer_id: signerId,
      meaning: body.meaning,
      content_hash: contentHash(content),
    })
    .returning();
  const [shown] = await present(tx, [row!]);
  return shown!;
}
