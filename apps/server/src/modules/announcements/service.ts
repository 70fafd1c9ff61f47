import { ANNOUNCEMENT_RECEIVER } from '@portal/shared';
import type { Announcement, AnnouncementBody, AnnouncementUpdateBody } from '@portal/shared';
import { count, desc, eq, sql } from 'drizzle-orm';
import { inTransaction } from '../../db/client.js';
import type { Database } from '../../db/client.js';
import { doctors, globalMessageReads, globalMessages } from '../../db/schema.js';
import { invalid, notFound } from '../../lib/errors.js';
import { claimVersion } from '../../lib/versions.js';
import { isBlankRichText, sanitizeRichText } from '../../lib/sanitize.js';
import { announcementAbilities, assertOwnAnnouncement } from '../../policies/announcements.js';
import type { Actor } from '../../plugins/policy.js';

/*
 * Announcements are not patient data: no audit trigger. Writes still name their actor through
 * inTransaction like every other write. Their content is never logged.
 */

const readCount = sql<number>`(select count(*)::int from ${globalMessageReads}
  where ${globalMessageReads.message_id} = ${globalMessages.id})`;

const selectAnnouncements = (db: Database) =>
  db
    .select({
      message: globalMessages,
      firstname: doctors.firstname,
      surname: doctors.surname,
      readNum: readCount,
    })
    .from(globalMessages)
    // An administrator has no doctor row: the sender is then null ("Administrator").
    .leftJoin(doctors, eq(doctors.user_id, globalMessages.sender_user_id));

type Row = Awaited<ReturnType<ReturnType<typeof selectAnnouncements>['execute']>>[number];

function present(actor: Actor, { message, firstname, surname, readNum }: Row): Announcement {
  return {
    id: message.id,
    content: message.content,
    created_at: message.created_at.toISOString(),
    updated_at: message.updated_at.toISOString(),
    sender: firstname !== null && surname !== null ? { firstname, surname } : null,
    sender_user_id: message.sender_user_id,
    readNum: Number(readNum),
    receiver_user_id: ANNOUNCEMENT_RECEIVER,
    version: message.version,
    abilities: announcementAbilities(actor, message),
  };
}

/** Sanitised rich text; nothing visible left (e.g. only a script) is a missing content. */
function cleanContent(html: string): string {
  const content = sanitizeRichText(html);
  if (isBlankRichText(content)) throw invalid({ content: ['required'] });
  return content;
}

async function loadOne(db: Database, actor: Actor, id: number): Promise<Announcement> {
  const [row] = await selectAnnouncements(db).where(eq(globalMessages.id, id));
  if (!row) throw notFound();
  return present(actor, row);
}

/** Every announcement, newest first (there are few: one screen, no paging). */
export async function listAnnouncements(db: Database, actor: Actor) {
  const [rows, [total]] = await Promise.all([
    selectAnnouncements(db).orderBy(desc(globalMessages.created_at), desc(globalMessages.id)),
    db.select({ n: count() }).from(globalMessages),
  ]);
  return {
    data: rows.map((row) => present(actor, row)),
    total_count: Number(total?.n ?? rows.length),
  };
}

export async function sendAnnouncement(db: Database, actor: Actor, body: AnnouncementBody) {
  const content = cleanContent(body.content);
  const id = await inTransaction(db, actor.userId, async (tx) => {
    const [row] = await tx
      .insert(globalMessages)
      .values({ content, sender_user_id: actor.userId })
      .returning({ id: globalMessages.id });
    return row!.id;
  });
  return loadOne(db, actor, id);
}

/** The announcement the actor may change (policies/announcements.ts): 404 when there is none. */
async function findChangeable(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({ sender_user_id: globalMessages.sender_user_id })
    .from(globalMessages)
    .where(eq(globalMessages.id, id));
  if (!row) throw notFound();
  assertOwnAnnouncement(actor, row);
}

/**
 * One statement claims the version and writes the content (claimVersion), so two simultaneous
 * edits cannot interleave: a stale `version` answers 409 conflict (ADR 018).
 */
export async function updateAnnouncement(
  db: Database,
  actor: Actor,
  id: number,
  body: AnnouncementUpdateBody,
) {
  await findChangeable(db, actor, id);
  const content = cleanContent(body.content);
  await inTransaction(db, actor.userId, (tx) =>
    claimVersion(tx, globalMessages, id, body.version, {
      set: { content, updated_at: new Date() },
    }),
  );
  return loadOne(db, actor, id);
}

export async function deleteAnnouncement(db: Database, actor: Actor, id: number) {
  await findChangeable(db, actor, id);
  await inTransaction(db, actor.userId, (tx) =>
    tx.delete(globalMessages).where(eq(globalMessages.id, id)),
  );
}
