import type { RecordAbilities } from '@portal/shared';
import { AppError, forbidden } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

/** A message the patient has read is history: only unread ones may be edited or deleted. */
export function assertMessageChangeable(message: { read_at: Date | null }): void {
  if (message.read_at) throw new AppError(409, 'already_read');
}

/** Administrators moderate every message; anyone else changes only the own. */
function ownsMessage(actor: Actor, message: { sender_user_id: number }): boolean {
  return actor.role === 'admin' || message.sender_user_id === actor.userId;
}

/**
 * A doctor edits and deletes only the messages the doctor sent; administrators any. The message
 * is reachable (the doctor reads the patient's thread), only the action is not: 403, not 404.
 */
export function assertOwnMessage(actor: Actor, message: { sender_user_id: number }): void {
  if (!ownsMessage(actor, message)) throw forbidden();
}

/**
 * The actor's abilities on a message of a patient it reached (ADR 045): the rules above, on a
 * patient not deleted (policies/patients.ts assertPatientActive).
 */
export function messageAbilities(
  actor: Actor,
  message: { sender_user_id: number; read_at: Date | null },
  patient: { deleted_at: Date | null },
): RecordAbilities {
  const may =
    can(actor, 'patients.write') &&
    !patient.deleted_at &&
    ownsMessage(actor, message) &&
    !message.read_at;
  return { edit: may, delete: may };
}
