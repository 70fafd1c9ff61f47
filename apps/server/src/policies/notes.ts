import { forbidden } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';

/**
 * A doctor changes and deletes only the own notes; administrators moderate any. The note is
 * reachable (the doctor reads it on the card), only the action is not: 403, not 404.
 */
export function assertOwnNote(actor: Actor, note: { author_user_id: number }): void {
  if (actor.role !== 'admin' && note.author_user_id !== actor.userId) throw forbidden();
}
