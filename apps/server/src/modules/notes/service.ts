import type { Note } from '@portal/shared';
import { and, desc, eq } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { doctors, notes, users } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import type { Actor } from '../../plugins/policy.js';
import { assertOwnNote, noteAbilities } from '../../policies/notes.js';
import { findChangeablePatient, findReachablePatient } from '../../policies/patients.js';

const selectNotes = (db: Database) =>
  db
    .select({
      note: notes,
      login: users.login,
      firstname: doctors.firstname,
      surname: doctors.surname,
    })
    .from(notes)
    .innerJoin(users, eq(users.id, notes.author_user_id))
    .leftJoin(doctors, eq(doctors.user_id, users.id));

type NoteRow = Awaited<ReturnType<ReturnType<typeof selectNotes>['execute']>>[number];

/** A note with the actor's abilities on it; `patient` is the patient it belongs to. */
function present(
  actor: Actor,
  patient: { deleted_at: Date | null },
  { note, login, firstname, surname }: NoteRow,
): Note {
  return {
    id: note.id,
    content: note.content,
    // Administrators have no name; the card shows "Administrator" for them.
    author: { firstname: firstname ?? '', surname: surname ?? '', login },
    created_at: note.created_at.toISOString(),
    updated_at: note.updated_at.toISOString(),
    ref_type: note.ref_type,
    ref_id: note.ref_id,
    version: note.version,
    abilities: noteAbilities(actor, note, patient),
  };
}

export async function listNotes(db: Database, actor: Actor, patientId: number) {
  const patient = await findReachablePatient(db, actor, patientId);
  const rows = await selectNotes(db)
    .where(and(eq(notes.ref_type, 'patient'), eq(notes.ref_id, patientId)))
    .orderBy(desc(notes.created_at), desc(notes.id));
  return { data: rows.map((row) => present(actor, patient, row)) };
}

export async function createNote(
  db: Database,
  actor: Actor,
  input: { content: string; ref_id: number },
) {
  const patient = await findChangeablePatient(db, actor, input.ref_id);
  const content = sanitizeRichText(input.content);
  if (isBlankRichText(content)) throw invalid({ content: ['required'] });
  const id = await inTransaction(db, actor.userId, async (tx) => {
    const [row] = await tx
      .insert(notes)
      .values({
        ref_type: 'patient',
        ref_id: input.ref_id,
        patient_id: input.ref_id,
        content,
        author_user_id: actor.userId,
      })
      .returning({ id: notes.id });
    return row!.id;
  });
  const [row] = await selectNotes(db).where(eq(notes.id, id));
  return present(actor, patient, row!);
}

export async function deleteNote(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({ patientId: notes.patient_id, author_user_id: notes.author_user_id })
    .from(notes)
    .where(eq(notes.id, id));
  if (!row?.patientId) throw notFound();
  await findChangeablePatient(db, actor, row.patientId);
  assertOwnNote(actor, row);
  await inTransaction(db, actor.userId, (tx) => tx.delete(notes).where(eq(notes.id, id)));
}
