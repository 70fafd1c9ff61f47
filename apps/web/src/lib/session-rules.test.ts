import { describe, expect, it } from 'vitest';
import type { Permission } from '@portal/shared';
import { homePath, landingPath, mustChangePassword } from './session-rules';

const ADMIN: Permission[] = ['doctors.manage', 'admins.manage', 'units.manage', 'audit.read'];
const DOCTOR: Permission[] = ['units.read', 'patients.read', 'patients.write'];
const CHANGED = '2026-01-01T00:00:00Z';

describe('session rules', () => {
  it('lands those who manage doctors on doctors, doctors on patients, anyone else on units', () => {
    expect(landingPath({ permissions: ADMIN })).toBe('/doctors');
    expect(landingPath({ permissions: DOCTOR })).toBe('/patients');
    expect(landingPath({ permissions: ['units.read'] })).toBe('/units');
    expect(landingPath({ permissions: [] })).toBe('/units');
  });

  it('lands staff who may see the dashboard on it, before anything else (ADR 060)', () => {
    expect(landingPath({ permissions: [...ADMIN, 'dashboard.read'] })).toBe('/dashboard');
    expect(landingPath({ permissions: [...DOCTOR, 'dashboard.read'] })).toBe('/dashboard');
  });

  it('forces a password change while none was ever set', () => {
    expect(mustChangePassword({ changed_password_at: null })).toBe(true);
    expect(mustChangePassword({ changed_password_at: CHANGED })).toBe(false);
  });

  it('sends users with a generated password to change it first', () => {
    expect(homePath({ permissions: ADMIN, changed_password_at: null })).toBe('/changepassword');
    expect(homePath({ permissions: DOCTOR, changed_password_at: null })).toBe('/changepassword');
    expect(homePath({ permissions: DOCTOR, changed_password_at: CHANGED })).toBe('/patients');
    expect(homePath({ permissions: ADMIN, changed_password_at: CHANGED })).toBe('/doctors');
  });
});
