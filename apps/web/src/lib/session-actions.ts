import type { LoginResponse } from '@portal/shared';
import { api } from './api-client';
import { sessionStore } from './session';

/** Ends the session on the server (every session of the user) and forgets it here. */
export async function logout() {
  try {
    await api.post('/auth/logout');
  } catch {
    // Signing out locally matters more than the server's answer.
  } finally {
    sessionStore.clear();
  }
}

let restoring: Promise<void> | null = null;

/**
 * Restores the session once per page load: a stored token is checked with validate_token (the
 * client refreshes it if expired), which also brings the user's current permissions (a user
 * stored by an older version has none until then); without one, the refresh cookie is tried silently when the
 * server's signed-in marker cookie says there is one.
 * Shared as one promise so that React's double effects in development do not refresh twice.
 */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    const stored = sessionStore.get();
    if (!stored) {
      // The server sets this marker beside its httpOnly refresh cookie; without it a refresh
      // could only be refused.
      if (document.cookie.split('; ').includes('portal_signed_in=1')) await api.refresh();
      return;
    }
    try {
      const answer = await api.get<LoginResponse>(`/auth/validate_token/${stored.user.role}`);
      sessionStore.set({ token: answer.access_token, user: answer.user });
    } catch {
      // A refused token has already cleared the session; with the server unreachable the stored
      // session stays and the next call decides.
    }
  })();
  return restoring;
}
