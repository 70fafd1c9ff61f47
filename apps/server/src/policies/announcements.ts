import { forbidden } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';

/**
 * A doctor edits and deletes only the announcements the doctor sent; administrators any (ADR 004,
 * docs/product-rules.md "Roles and reach"). Every announcement is visible to every member of staff,
 * so refusing the action is 403, not the 404 that hides another unit's records.
 */
export function assertOwnAnnouncement(actor: Actor, announcement: { sender_user_id: number }) {
  if (actor.role !== 'admin' && announcement.sender_user_id !== actor.userId) throw forbidden();
}
