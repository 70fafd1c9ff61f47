import type { RecordAbilities } from '@portal/shared';
import { forbidden } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

/** Administrators edit and delete every announcement; a doctor only the own. */
function ownsAnnouncement(actor: Actor, announcement: { sender_user_id: number }): boolean {
  return actor.role === 'admin' || announcement.sender_user_id === actor.userId;
}

/**
 * A doctor edits and deletes only the announcements the doctor sent; administrators any (ADR 004,
 * docs/product-rules.md "Roles and reach"). Every announcement is visible to every member of staff,
 * so refusing the action is 403, not the 404 that hides another unit's records.
 */
export function assertOwnAnnouncement(actor: Actor, announcement: { sender_user_id: number }) {
  if (!ownsAnnouncement(actor, announcement)) throw forbidden();
}

/** The actor's abilities on an announcement (ADR 045): `announcements.write` and the rule above. */
export function announcementAbilities(
  actor: Actor,
  announcement: { sender_user_id: number },
): RecordAbilities {
  const may = can(actor, 'announcements.write') && ownsAnnouncement(actor, announcement);
  return { edit: may, delete: may };
}
