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
