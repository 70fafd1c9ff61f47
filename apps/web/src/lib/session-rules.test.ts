import { describe, expect, it } from 'vitest';
import { homePath, isAdmin, landingPath, mustChangePassword } from './session-rules';

describe('session rules', () => {
  it('lands administrators on doctors and doctors on units', () => {
    expect(landingPath({ role: 'admin' })).toBe('/doctors');
    expect(landingPath({ role: 'doctor' })).toBe('/units');
  });

  it('forces a password change while none was ever set', () => {
    expect(mustChangePassword({ changed_password_at: null })).toBe(true);
    expect(mustChangePassword({ changed_password_at: '2026-01-01T00:00:00Z' })).toBe(false);
  });

  it('tells administrators apart', () => {
    expect(isAdmin({ role: 'admin' })).toBe(true);
    expect(isAdmin({ role: 'doctor' })).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });

  it('sends users with a generated password to change it first', () => {
    expect(homePath({ role: 'admin', changed_password_at: null })).toBe('/changepassword');
    expect(homePath({ role: 'doctor', changed_password_at: null })).toBe('/changepassword');
    expect(homePath({ role: 'doctor', changed_password_at: '2026-01-01T00:00:00Z' })).toBe(
      '/units',
    );
  });
});
