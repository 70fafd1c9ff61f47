import { AppError } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';

/**
 * An administrator does not delete the own account (there would be nobody to undo it from this
 * session).
 */
export function assertMayDeleteAccount(actor: Actor, accountUserId: number): void {
  if (accountUserId === actor.userId) throw new AppError(409, 'cannot_delete_self');
}

/**
 * New login details for the own account would end the very session that asked for them before
 * the new password is shown; the change-password screen is the way to a new own password.
 */
export function assertMayResetCredentials(actor: Actor, accountUserId: number): void {
  if (accountUserId === actor.userId) throw new AppError(409, 'own_account');
}
