import type { SessionUser } from '@portal/shared';

/** Where a signed-in user lands: administrators on doctors, doctors on units (design §4). */
export function landingPath(user: Pick<SessionUser, 'role'>): string {
  return user.role === 'admin' ? '/doctors' : '/units';
}

/** A generated password was never replaced: everything leads to the change-password screen. */
export function mustChangePassword(user: Pick<SessionUser, 'changed_password_at'>): boolean {
  return !user.changed_password_at;
}

export function isAdmin(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return user?.role === 'admin';
}

/** The first screen for a signed-in user: change password first when it was never chosen. */
export function homePath(user: Pick<SessionUser, 'role' | 'changed_password_at'>): string {
  return mustChangePassword(user) ? '/changepassword' : landingPath(user);
}
