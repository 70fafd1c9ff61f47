import { AppError, forbidden } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';

/** A message the patient has read is history: only unread ones may be edited or deleted. */
export function assertMessageChangeable(message: { read_at: Date | null }): void {
  if (message.read_at) throw new AppError(409, 'already_read');
}

/**
 * A doctor edits and deletes only the messages the doctor sent; administrators any. The message
 * is reachable (the doctor reads the patient's thread), only the action is not: 403, not 404.
 */
export function assertOwnMessage(actor: Actor, message: { sender_user_id: number }): void {
  if (actor.role !== 'admin' && message.sender_user_id !== actor.userId) throw forbidden();
}
