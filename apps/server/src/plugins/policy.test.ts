import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors.js';
import { assertUnitReachable, can, unitScope } from './policy.js';
import type { Actor, Permission } from './policy.js';

const admin: Actor = {
  userId: 1,
  sessionId: 1,
  login: 'admin',
  role: 'admin',
  doctorId: null,
  unitId: null,
  changedPasswordAt: new Date('2026-01-05T10:00:00Z'),
};
const doctor: Actor = {
  userId: 2,
  sessionId: 2,
  login: 'lekarz@szpital.test',
  role: 'doctor',
  doctorId: 7,
  unitId: 3,
  changedPasswordAt: new Date('2026-01-05T10:00:00Z'),
};

/** design.md §4: what each role may do. */
const table: Record<Permission, { admin: boolean; doctor: boolean }> = {
  'units.read': { admin: true, doctor: true },
  'units.manage': { admin: true, doctor: false },
  'doctors.manage': { admin: true, doctor: false },
  'doctors.lookup': { admin: true, doctor: true },
  'admins.manage': { admin: true, doctor: false },
  'credentials.print': { admin: true, doctor: true },
  'lookups.read': { admin: true, doctor: true },
  'patients.read': { admin: true, doctor: true },
  'patients.write': { admin: true, doctor: true },
  'patients.all_units': { admin: true, doctor: false },
  'audit.read': { admin: true, doctor: false },
  'settings.manage': { admin: true, doctor: false },
};

describe('can', () => {
  it.each(Object.entries(table))('%s', (permission, expected) => {
    expect(can(admin, permission as Permission)).toBe(expected.admin);
    expect(can(doctor, permission as Permission)).toBe(expected.doctor);
  });

  it('does not depend on the password having been changed (the auth plugin checks that)', () => {
    expect(can({ ...doctor, changedPasswordAt: null }, 'units.read')).toBe(true);
  });
});

describe('unitScope', () => {
  it('confines a doctor to the own unit and lets an administrator see all', () => {
    expect(unitScope(doctor)).toBe(3);
    expect(unitScope(admin)).toBeNull();
    // An administrator is never confined, whatever the record says.
    expect(unitScope({ ...admin, unitId: 9 })).toBeNull();
  });
});

describe('assertUnitReachable', () => {
  it('lets an administrator reach every unit', () => {
    expect(() => assertUnitReachable(admin, 3)).not.toThrow();
    expect(() => assertUnitReachable(admin, 999)).not.toThrow();
  });

  it("lets a doctor reach the own unit and answers another unit's rows with 404", () => {
    expect(() => assertUnitReachable(doctor, 3)).not.toThrow();
    let caught: unknown;
    try {
      assertUnitReachable(doctor, 4);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ statusCode: 404, status: 'not_found' });
  });
});

describe('unit scope fails closed', () => {
  it('gives a doctor without a unit no unit at all', () => {
    const stray: Actor = {
      userId: 9,
      sessionId: 9,
      login: 'x',
      role: 'doctor',
      doctorId: 9,
      unitId: null,
      changedPasswordAt: new Date(),
    };
    expect(unitScope(stray)).toBe(0);
  });
});
