import type { MessageUpdateBody, PatientMessage } from '@portal/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { doctors, messages, patients, users } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import { claimVersion } from '../../lib/versions.js';
import {
  assertMessageChangeable,
  assertOwnMessage,
  messageAbilities,
} from '../../policies/messages.js';
import type { Actor } from '../../plugins/policy.js';
import {
  assertPatientActive,
  findChangeablePatient,
  patientScope,
} from '../../policies/patients.js';

/** The reachable patient whose account has this user id (messages address patients by user). */
async function patientOfUser(db: Database, actor: Actor, userId: number) {
  const [row] = await db
    .select({ id: patients.id, deleted_at: patients.deleted_at })
    .from(patients)
    .where(and(eq(patients.user_id, userId), patientScope(actor)));
  if (!row) throw notFound();
  return row;
}

const selectMessages = (db: Database) =>
  db
    .select({
      message: messages,
      role: users.role,
      firstname: doctors.firstname,
      surname: doctors.surname,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.sender_user_id))
    .leftJoin(doctors, eq(doctors.user_id, users.id));

type Row = Awaited<ReturnType<ReturnType<typeof selectMessages>['execute']>>[number];

/** A message with the actor's abilities on it; `patient` is the patient it belongs to. */
function present(
  actor: Actor,
  patient: { deleted_at: Date | null },
  { message, role, firstname, surname }: Row,
): PatientMessage {
  return {
    id: message.id,
    content: message.content,
    created_at: message.created_at.toISOString(),
    read_at: message.read_at?.toISOString() ?? null,
    sender: { firstname, surname, role },
    sender_user_id: message.sender_user_id,
    receiver_user_id: message.receiver_user_id,
    version: message.version,
    abilities: messageAbilities(actor, message, patient),
  };
}

function cleanContent(html: string): string {
  const content = sanitizeRichText(html);
  if (isBlankRichText(content)) throw invalid({ content: ['required'] });
  return content;
}

export async function listMessages(db: Database, actor: Actor, receiverUserId: number) {
  const patient = await patientOfUser(db, actor, receiverUserId);
  const rows = await selectMessages(db)
    .where(eq(messages.patient_id, patient.id))
    .orderBy(desc(messages.created_at), desc(messages.id));
  return { data: rows.map((row) => present(actor, patient, row)), patientId: patient.id };
}

export async function sendMessage(
  db: Database,
  actor: Actor,
  input: { content: string; receiver_user_id: number },
) {
  const patient = await patientOfUser(db, actor, input.receiver_user_id);
  assertPatientActive(patient);
  const patientId = patient.id;
  const content = cleanContent(input.content);
  const id = await inTransaction(db, actor.userId, async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        patient_id: patientId,
        sender_user_id: actor.userId,
        receiver_user_id: input.receiver_user_id,
        content,
      })
      .returning({ id: messages.id });
    return row!.id;
  });
  const [row] = await selectMessages(db).where(eq(messages.id, id));
  return present(actor, patient, row!);
}

/**
 * A message of a reachable, not deleted patient, sent by the actor (or any, for an
 * administrator), that may still change (policies/messages.ts).
 */
async function findUnread(db: Database, actor: Actor, id: number) {
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  if (!row) throw notFound();
  const patient = await findChangeablePatient(db, actor, row.patient_id);
  assertOwnMessage(actor, row);
  assertMessageChangeable(row);
  return patient;
}

/** A stale `version` answers 409 conflict; a message read meanwhile 409 already_read. */
export async function updateMessage(
  db: Database,
  actor: Actor,
  id: number,
  body: MessageUpdateBody,
) {
  const patient = await findUnread(db, actor, id);
  const content = cleanContent(body.content);
  await inTransaction(db, actor.userId, async (tx) => {
    await claimVersion(tx, messages, id, body.version);
    const [saved] = await tx
      .update(messages)
      .set({ content, updated_at: new Date() })
      .where(and(eq(messages.id, id), isNull(messages.read_at)))
      .returning({ id: messages.id });
    // Read by the patient between the check above and the claim: the edit is refused whole.
    if (!saved) assertMessageChangeable({ read_at: new Date() });
  });
  const [row] = await selectMessages(db).where(eq(messages.id, id));
  return present(actor, patient, row!);
}

export async function deleteMessage(db: Database, actor: Actor, id: number) {
  await findUnread(db, actor, id);
  await inTransaction(db, actor.userId, (tx) =>
    tx.delete(messages).where(and(eq(messages.id, id), isNull(messages.read_at))),
  );
}
