import type { SessionUser } from '@portal/shared';

/** The signed-in user with the bearer token that represents the session. */
export interface Session {
  token: string;
  user: SessionUser;
}

/** The subset of the Web Storage API the store needs; tests pass an in-memory one. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const TOKEN_KEY = 'portal.token';
export const USER_KEY = 'portal.user';

// Function properties rather than methods: the store is passed around unbound.
export interface SessionStore {
  get: () => Session | null;
  set: (session: Session) => void;
  clear: () => void;
  subscribe: (listener: () => void) => () => void;
  /**
   * Takes what another tab of this browser stored meanwhile (a refreshed token) and returns it.
   * Every tab shares one refresh cookie, so a tab must not refresh again with a rotated one.
   */
  syncFromStorage: () => Session | null;
}

function readUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const user = value as SessionUser;
    // A user stored before permissions travelled with the session holds none until
    // restoreSession (session-actions.ts) asks validate_token for the current list.
    return Array.isArray(user.permissions) ? user : { ...user, permissions: [] };
  } catch {
    return null;
  }
}

/**
 * Keeps the session in storage so that a reload restores it. The snapshot object only changes on
 * set/clear, which is what useSyncExternalStore needs.
 */
export function createSessionStore(storage: KeyValueStorage): SessionStore {
  const listeners = new Set<() => void>();
  const token = storage.getItem(TOKEN_KEY);
  const user = readUser(storage.getItem(USER_KEY));
  let current: Session | null = token && user ? { token, user } : null;

  const emit = () => listeners.forEach((listener) => listener());

  return {
    get: () => current,
    syncFromStorage() {
      const storedToken = storage.getItem(TOKEN_KEY);
      const storedUser = readUser(storage.getItem(USER_KEY));
      if (storedToken && storedUser && storedToken !== current?.token) {
        current = { token: storedToken, user: storedUser };
        emit();
      }
      return current;
    },
    set(session) {
      current = session;
      storage.setItem(TOKEN_KEY, session.token);
      storage.setItem(USER_KEY, JSON.stringify(session.user));
      emit();
    },
    clear() {
      const had = current !== null;
      current = null;
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(USER_KEY);
      if (had) emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** In-memory storage for tests and for browsers that refuse localStorage. */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}
