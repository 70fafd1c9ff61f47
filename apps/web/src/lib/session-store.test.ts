import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@portal/shared';
import { TOKEN_KEY, USER_KEY, createSessionStore, memoryStorage } from './session-store';

const user: SessionUser = {
  id: 1,
  login: 'admin',
  role: 'admin',
  changed_password_at: '2026-01-01T00:00:00Z',
  doctor_id: null,
  firstname: null,
  surname: null,
  unit_id: null,
  permissions: ['audit.read', 'doctors.manage'],
};

describe('session store', () => {
  it('restores a stored session with its permissions', () => {
    const storage = memoryStorage();
    createSessionStore(storage).set({ token: 't', user });
    expect(createSessionStore(storage).get()).toEqual({ token: 't', user });
  });

  it('reads a user stored before permissions travelled as holding none', () => {
    const storage = memoryStorage();
    const legacy: Partial<SessionUser> = { ...user };
    delete legacy.permissions;
    storage.setItem(TOKEN_KEY, 't');
    storage.setItem(USER_KEY, JSON.stringify(legacy));
    expect(createSessionStore(storage).get()?.user.permissions).toEqual([]);
    expect(createSessionStore(storage).get()?.user.role).toBe('admin');
  });

  it('forgets an unreadable stored user', () => {
    const storage = memoryStorage();
    storage.setItem(TOKEN_KEY, 't');
    storage.setItem(USER_KEY, '{not json');
    expect(createSessionStore(storage).get()).toBeNull();
  });
});
