import { Navigate, Outlet, useLocation } from 'react-router';
import type { Permission } from '@portal/shared';
import { can } from '../lib/permissions';
import { useSession } from '../lib/session';
import { homePath, landingPath, mustChangePassword } from '../lib/session-rules';

const CHANGE_PASSWORD = '/changepassword';

/** Signed-in area: no session leads to /login; a generated password to /changepassword. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace />;
  if (mustChangePassword(session.user) && location.pathname !== CHANGE_PASSWORD) {
    return <Navigate to={CHANGE_PASSWORD} replace />;
  }
  return <Outlet />;
}

/**
 * Screens the server answers with 403 to users without the permission (doctors and
 * administrators lists): such users are sent to their landing screen instead.
 */
export function RequirePermission({ permission }: { permission: Permission }) {
  const session = useSession();
  if (session && !can(session.user, permission)) {
    return <Navigate to={landingPath(session.user)} replace />;
  }
  return <Outlet />;
}

/** /login is for signed-out users only. */
export function PublicOnly() {
  const session = useSession();
  if (session) return <Navigate to={homePath(session.user)} replace />;
  return <Outlet />;
}

/** `/` and unknown paths. */
export function HomeRedirect() {
  const session = useSession();
  return <Navigate to={session ? homePath(session.user) : '/login'} replace />;
}
