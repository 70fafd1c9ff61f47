import type { RecordAbilities } from '@portal/shared';
import { forbidden } from '../lib/errors.js';
import { can } from '../plugins/policy.js';
import type { Actor } from '../plugins/policy.js';

/** Administrators moderate every note; anyone else deletes only the own. */
function ownsNote(actor: Actor, note: { author_user_id: number }): boolean {
  return actor.role === 'admin' || note.author_user_id === actor.userId;
}

/**
 * A doctor changes and deletes only the own notes; administrators moderate any. The note is
 * reachable (the doctor reads it on the card), only the action is not: 403, not 404.
 */
export function assertOwnNote(actor: Actor, note: { author_user_id: number }): void {
  if (!ownsNote(actor, note)) throw forbidden();
}

/**
 * The actor's abilities on a note of a patient it reached (ADR 045). Notes are never edited
 * (there is no such call), so `edit` is false; `delete` is the rule above on a patient not
 * deleted (policies/patients.ts assertPatientActive).
 */
export function noteAbilities(
  actor: Actor,
  note: { author_user_id: number },
  patient: { deleted_at: Date | null },
): RecordAbilities {
  return {
    edit: false,
    delete: can(actor, 'patients.write') && !patient.deleted_at && ownsNote(actor, note),
  };
}
