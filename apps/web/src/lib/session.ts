import { useSyncExternalStore } from 'react';
import { createSessionStore, memoryStorage } from './session-store';
import type { KeyValueStorage, Session } from './session-store';

function browserStorage(): KeyValueStorage {
  try {
    const storage = window.localStorage;
    storage.getItem('portal.token');
    return storage;
  } catch {
    // Storage can be disabled by policy; the session then lives until the tab closes.
    return memoryStorage();
  }
}

/** The one session of this browser tab, kept in localStorage. */
export const sessionStore = createSessionStore(browserStorage());

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
