import type { SessionUser } from '@portal/shared';
import { can } from './permissions';

type RulesUser = Pick<SessionUser, 'permissions' | 'changed_password_at'>;

/**
 * Where a signed-in user lands: staff with the dashboard on it (ADR 060); otherwise those who
 * manage doctors (administrators) on doctors, those who read patients (doctors) on their
 * patients, their daily screen (ADR 039); anyone else on units.
 */
export function landingPath(user: Pick<SessionUser, 'permissions'>): string {
  if (can(user, 'dashboard.read')) return '/dashboard';
  if (can(user, 'doctors.manage')) return '/doctors';
  return can(user, 'patients.read') ? '/patients' : '/units';
}

/** A generated password was never replaced: everything leads to the change-password screen. */
export function mustChangePassword(user: Pick<SessionUser, 'changed_password_at'>): boolean {
  return !user.changed_password_at;
}

/** The first screen for a signed-in user: change password first when it was never chosen. */
export function homePath(user: RulesUser): string {
  return mustChangePassword(user) ? '/changepassword' : landingPath(user);
}
