import { z } from 'zod';
import { recordAbilities, versionField } from './common.js';
import { richText } from './patient-records.js';

/**
 * Announcements to every patient (docs/product-rules.md "Records and their states", "Roles and
 * reach"; docs/api-conventions.md "Announcements"; ADR 031). The content is rich text,
 * sanitised on the server like notes and messages.
 */

/**
 * The receiver of every announcement: the contract's client sends `receiver_user_id` fixed 1 (an
 * announcement goes to every patient, not to user 1). Any other value would promise a receiver
 * the portal does not honour, so it is refused (422 `invalid`, ADR 038).
 */
export const ANNOUNCEMENT_RECEIVER = 1;

/** POST /api/notifications/global. */
export const announcementBody = z.object({
  content: richText(),
  /** Optional; when sent it must be 1 (a number, not "1"). */
  receiver_user_id: z.literal(ANNOUNCEMENT_RECEIVER, { error: 'invalid' }).optional(),
});
export type AnnouncementBody = z.infer<typeof announcementBody>;
/** PUT /api/notifications/global/{id}: the same and the version that was read (ADR 018). */
export const announcementUpdateBody = announcementBody.extend({
  version: versionField().optional(),
});
export type AnnouncementUpdateBody = z.infer<typeof announcementUpdateBody>;

export const announcement = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The sending doctor; null when an administrator sent it (shown "Administrator"). */
  sender: z.object({ firstname: z.string(), surname: z.string() }).nullable(),
  /** The sender's user id, so a doctor's screen knows which are the own (editable) ones. */
  sender_user_id: z.number().int(),
  /** How many patients have read it ("Przeczytane przez: N"). */
  readNum: z.number().int(),
  /** Always 1: every patient (a fixed value). */
  receiver_user_id: z.literal(ANNOUNCEMENT_RECEIVER),
  version: z.number().int(),
  /** Edit and delete: the own, or any for administrators (ADR 045). */
  abilities: recordAbilities,
});
export type Announcement = z.infer<typeof announcement>;

/** GET /api/notifications/global: newest first. */
export const announcementList = z.object({
  data: z.array(announcement),
  total_count: z.number().int(),
});
export type AnnouncementList = z.infer<typeof announcementList>;
/** POST and PUT answer the stored announcement. */
export const announcementSaved = z.object({ data: announcement });
export type AnnouncementSaved = z.infer<typeof announcementSaved>;
