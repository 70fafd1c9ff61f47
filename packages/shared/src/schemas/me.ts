import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../constants.js';

/**
 * The patient API (`/api/me/*`, docs/api-conventions.md "Patient API", ADR 031): what a signed-in
 * patient reads about the own record. Visits, samples and kit orders keep the portal's shapes
 * (visitList, probeList, probeSetList); the rest is narrowed to what a patient may see.
 */

/** A staff member as a patient sees one: the doctor's name, or null for an administrator. */
export const meSender = z.object({ firstname: z.string(), surname: z.string() }).nullable();
export type MeSender = z.infer<typeof meSender>;

/** GET /api/me: the own basic data and where to call for help. */
export const meProfile = z.object({
  id: z.number().int(),
  firstname: z.string(),
  surname: z.string(),
  login: z.string(),
  unit_name: z.string(),
  /** The patient's doctor. */
  doctor: z.object({ firstname: z.string(), surname: z.string() }),
  /** The support phone number (setting `phone`), null while not set. */
  support: z.string().nullable(),
});
export type MeProfile = z.infer<typeof meProfile>;

/** GET /api/me/messages: the own messages, newest first; reading marks them read. */
export const meMessage = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
  sender: meSender,
});
export type MeMessage = z.infer<typeof meMessage>;
export const meMessageList = z.object({ data: z.array(meMessage) });
export type MeMessageList = z.infer<typeof meMessageList>;

/** GET /api/me/announcements: newest first, paged; reading counts ("Przeczytane przez: N"). */
export const meAnnouncementQuery = z.object({
  limit: z.coerce
    .number({ error: 'invalid_number' })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid' })
    .max(MAX_PAGE_SIZE, { error: 'invalid' })
    .default(20),
  page: z.coerce
    .number({ error: 'invalid_number' })
    .int({ error: 'invalid_number' })
    .min(1, { error: 'invalid' })
    .max(1_000_000, { error: 'invalid' })
    .default(1),
});
export type MeAnnouncementQuery = z.infer<typeof meAnnouncementQuery>;
export const meAnnouncement = z.object({
  id: z.number().int(),
  content: z.string(),
  created_at: z.string(),
  sender: meSender,
});
export type MeAnnouncement = z.infer<typeof meAnnouncement>;
export const meAnnouncementList = z.object({
  data: z.array(meAnnouncement),
  total_count: z.number().int(),
});
export type MeAnnouncementList = z.infer<typeof meAnnouncementList>;

/** GET /api/me/documents: the patient panel's documents, newest first. */
export const meDocument = z.object({
  id: z.number().int(),
  original_name: z.string(),
  created_at: z.string(),
  size_bytes: z.number().int(),
});
export type MeDocument = z.infer<typeof meDocument>;
export const meDocumentList = z.object({ data: z.array(meDocument) });
export type MeDocumentList = z.infer<typeof meDocumentList>;
