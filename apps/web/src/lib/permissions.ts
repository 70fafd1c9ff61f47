import type { Permission, SessionUser } from '@portal/shared';
import { useSession } from './session';

/**
 * Whether the user holds a permission. The server's policy computes the list and sends it with
 * the session (login, validate_token); the web app asks it instead of re-deriving rules from the
 * role. No user, or a user stored before permissions travelled with the session, holds none.
 */
export function can(
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: Permission,
): boolean {
  return Array.isArray(user?.permissions) && user.permissions.includes(permission);
}

/** `can(permission)` for the signed-in user; re-renders when the session changes. */
export function useCan(): (permission: Permission) => boolean {
  const session = useSession();
  const user = session?.user;
  return (permission) => can(user, permission);
}

/**
 * Whether the user may open a unit's calendar: `calendar.manage`, and every unit for whoever
 * reaches all units (administrators), the own unit for a doctor (the server's reachesUnit).
 */
export function reachesUnitCalendar(
  user: Pick<SessionUser, 'permissions' | 'unit_id'> | null | undefined,
  unitId: number,
): boolean {
  if (!can(user, 'calendar.manage')) return false;
  return can(user, 'patients.all_units') || user?.unit_id === unitId;
}
