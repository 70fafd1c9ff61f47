import type {
  MeAnnouncementList,
  MeAnnouncementQuery,
  MeDocumentList,
  MeMessageList,
  MeProfile,
  MeSender,
  OwnProbeSetBody,
  PhoneValue,
  Probe,
  ProbeSet,
  Visit,
} from '@portal/shared';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import {
  doctors,
  files,
  globalMessageReads,
  globalMessages,
  messages,
  patients,
  probeSets,
  probes,
  units,
  users,
  visits,
} from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { offsetOf } from '../../lib/listing.js';
import type { Actor } from '../../plugins/policy.js';
import { ownPatientId } from '../../policies/patients.js';
import { cleanFileName } from '../files/index.js';
import { createProbeSet, loadProbeSets } from '../probe-sets/index.js';
import { loadProbes } from '../probes/index.js';
import { readSetting } from '../settings/index.js';
import { loadVisits } from '../visits/index.js';

/** The panel whose documents patients read (the documents feature uploads them). */
const PATIENT_DOCUMENTS = 'patient_documents';

/** A staff sender as a patient sees one: the doctor's name, or null (shown "Administrator"). */
function senderOf(row: { firstname: string | null; surname: string | null }): MeSender {
  return row.firstname !== null && row.surname !== null
    ? { firstname: row.firstname, surname: row.surname }
    : null;
}

export async function profile(db: Database, actor: Actor): Promise<MeProfile> {
  const patientId = ownPatientId(actor);
  const [row] = await db
    .select({
      id: patients.id,
      firstname: patients.firstname,
      surname: patients.surname,
      login: users.login,
      unit_name: units.name,
      doctor: { firstname: doctors.firstname, surname: doctors.surname },
    })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.user_id))
    .innerJoin(units, eq(units.id, patients.unit_id))
    .innerJoin(doctors, eq(doctors.id, patients.doctor_id))
    .where(eq(patients.id, patientId));
  if (!row) throw notFound();
  const phone = (await readSetting(db, 'phone')).value as PhoneValue;
  return { ...row, support: phone.support || null };
}

/**
 * The own messages, newest first. Reading them marks the unread ones read in one UPDATE under the
 * patient's name (the audit trail records who read them); from then on the portal shows them
 * read-only (409 already_read on an edit). The answer shows them as read, as they now are.
 */
export async function readMessages(db: Database, actor: Actor): Promise<MeMessageList> {
  const patientId = ownPatientId(actor);
  const rows = await inTransaction(db, actor.userId, async (tx) => {
    const now = new Date();
    await tx
      .update(messages)
      .set({ read_at: now, updated_at: now })
      .where(and(eq(messages.patient_id, patientId), isNull(messages.read_at)));
    return tx
      .select({
        id: messages.id,
        content: messages.content,
        created_at: messages.created_at,
        read_at: messages.read_at,
        firstname: doctors.firstname,
        surname: doctors.surname,
      })
      .from(messages)
      .leftJoin(doctors, eq(doctors.user_id, messages.sender_user_id))
      .where(eq(messages.patient_id, patientId))
      .orderBy(desc(messages.created_at), desc(messages.id));
  });
  return {
    data: rows.map((row) => ({
      id: row.id,
      content: row.content,
      created_at: row.created_at.toISOString(),
      read_at: row.read_at?.toISOString() ?? null,
      sender: senderOf(row),
    })),
  };
}

/**
 * A page of announcements, newest first. Each one shown is recorded as read by this user (once:
 * a second reading adds nothing), which is what "Przeczytane przez: N" counts.
 */
export async function readAnnouncements(
  db: Database,
  actor: Actor,
  query: MeAnnouncementQuery,
): Promise<MeAnnouncementList> {
  ownPatientId(actor);
  return inTransaction(db, actor.userId, async (tx) => {
    const rows = await tx
      .select({
        id: globalMessages.id,
        content: globalMessages.content,
        created_at: globalMessages.created_at,
        firstname: doctors.firstname,
        surname: doctors.surname,
      })
      .from(globalMessages)
      .leftJoin(doctors, eq(doctors.user_id, globalMessages.sender_user_id))
      .orderBy(desc(globalMessages.created_at), desc(globalMessages.id))
      .limit(query.limit)
      .offset(offsetOf(query.page, query.limit));
    const [total] = await tx.select({ n: count() }).from(globalMessages);
    if (rows.length > 0) {
      await tx
        .insert(globalMessageReads)
        .values(rows.map((row) => ({ message_id: row.id, user_id: actor.userId })))
        // Read before (or by a parallel request): the first reading is the one that counts.
        .onConflictDoNothing();
    }
    return {
      data: rows.map((row) => ({
        id: row.id,
        content: row.content,
        created_at: row.created_at.toISOString(),
        sender: senderOf(row),
      })),
      total_count: total?.n ?? 0,
    };
  });
}

/** Panel documents are files of `ref_type` patient_documents that belong to no patient. */
const patientPanel = and(eq(files.ref_type, PATIENT_DOCUMENTS), isNull(files.patient_id));

export async function listDocuments(db: Database, actor: Actor): Promise<MeDocumentList> {
  ownPatientId(actor);
  const rows = await db
    .select({
      id: files.id,
      original_name: files.original_name,
      created_at: files.created_at,
      size_bytes: files.size_bytes,
    })
    .from(files)
    .where(patientPanel)
    .orderBy(desc(files.created_at), desc(files.id));
  return {
    data: rows.map((row) => ({
      ...row,
      original_name: cleanFileName(row.original_name),
      created_at: row.created_at.toISOString(),
    })),
  };
}

/** One patient-panel document; any other file (a doctor document, an attachment) is 404. */
export async function downloadDocument(db: Database, actor: Actor, id: number) {
  ownPatientId(actor);
  const [row] = await db
    .select({ name: files.original_name, mimeType: files.mime_type, content: files.content })
    .from(files)
    .where(and(eq(files.id, id), patientPanel));
  if (!row) throw notFound();
  return row;
}

/** The own live visits, by date (the portal's visit shape). */
export async function ownVisits(db: Database, actor: Actor): Promise<{ data: Visit[] }> {
  return { data: await loadVisits(db, actor, eq(visits.patient_id, ownPatientId(actor))) };
}

/** The own samples, newest first (the portal's sample shape). */
export async function ownProbes(db: Database, actor: Actor): Promise<{ data: Probe[] }> {
  return { data: await loadProbes(db, eq(probes.patient_id, ownPatientId(actor))) };
}

/** The own kit orders, newest first, with their kits and shipments. */
export async function ownProbeSets(db: Database, actor: Actor): Promise<{ data: ProbeSet[] }> {
  return { data: await loadProbeSets(db, eq(probeSets.patient_id, ownPatientId(actor))) };
}

/**
 * Orders kits for the own record: the staff order's service with the own id as `patient_id`, so
 * a deleted patient (who cannot sign in anyway) gets 409 patient_deleted like on the card.
 */
export async function orderProbeSet(
  db: Database,
  actor: Actor,
  body: OwnProbeSetBody,
): Promise<ProbeSet> {
  // createProbeSet reaches the patient through the row policy (patientScope: the own row only).
  return createProbeSet(db, actor, { ...body, patient_id: ownPatientId(actor) });
}
