import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logout } from './session-actions';

/** Signs out on the server, forgets the session and every cached list, and shows /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await logout();
    queryClient.clear();
    await navigate('/login', { replace: true });
  };
}
