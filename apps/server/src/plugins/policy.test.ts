import { PERMISSIONS } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors.js';
import { assertMayDeleteAccount, assertMayResetCredentials } from '../policies/accounts.js';
import { assertMessageChangeable } from '../policies/messages.js';
import { assertMayRegisterIn } from '../policies/patients.js';
import { reachesUnit, unitScope } from '../policies/units.js';
import { can, permissionsOf } from './policy.js';
import type { Actor } from './policy.js';

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

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('what each role may do', () => {
  it('keeps doctors read-only on units: they read them but never manage them', () => {
    expect(can(doctor, 'units.read')).toBe(true);
    expect(can(doctor, 'units.manage')).toBe(false);
    expect(can(admin, 'units.manage')).toBe(true);
  });

  it('lets doctors work with patients but keeps staff accounts, audit and settings to admins', () => {
    for (const permission of ['patients.read', 'patients.write', 'lookups.read'] as const) {
      expect(can(doctor, permission)).toBe(true);
    }
    for (const permission of [
      'doctors.manage',
      'admins.manage',
      'audit.read',
      'settings.manage',
      'patients.all_units',
    ] as const) {
      expect(can(doctor, permission), permission).toBe(false);
      expect(can(admin, permission), permission).toBe(true);
    }
  });

  it("lets both roles manage calendars; the doctor's reach is the own unit (policies/units.ts)", () => {
    expect(can(admin, 'calendar.manage')).toBe(true);
    expect(can(doctor, 'calendar.manage')).toBe(true);
    expect(reachesUnit(doctor, 3)).toBe(true);
    expect(reachesUnit(doctor, 4)).toBe(false);
  });

  it("gives an administrator every staff permission there is but a monitor's own", () => {
    expect(permissionsOf('admin')).toEqual(
      PERMISSIONS.filter(
        (permission) => permission !== 'patient.self' && !permission.startsWith('monitor.'),
      ).sort(),
    );
  });

  it('lists what the session sends: sorted, without duplicates, the same as `can`', () => {
    for (const actor of [admin, doctor]) {
      const listed = permissionsOf(actor.role);
      expect(listed).toEqual([...new Set(listed)].sort());
      for (const permission of PERMISSIONS) {
        expect(listed.includes(permission)).toBe(can(actor, permission));
      }
    }
  });

  it('does not depend on the password having been changed (the auth plugin checks that)', () => {
    expect(can({ ...doctor, changedPasswordAt: null }, 'units.read')).toBe(true);
  });
});

describe('which units an actor reaches', () => {
  it('confines a doctor to the own unit and lets an administrator reach all', () => {
    expect(unitScope(doctor)).toBe(3);
    expect(reachesUnit(doctor, 3)).toBe(true);
    expect(reachesUnit(doctor, 4)).toBe(false);
    expect(unitScope(admin)).toBeNull();
    expect(reachesUnit(admin, 999)).toBe(true);
  });

  it('decides by the patients.all_units permission, not by a unit on the record', () => {
    // An administrator is never confined, whatever the record says.
    expect(unitScope({ ...admin, unitId: 9 })).toBeNull();
  });

  it('fails closed: a doctor without a unit reaches no unit at all', () => {
    const stray: Actor = { ...doctor, unitId: null };
    expect(unitScope(stray)).toBe(0);
    expect(reachesUnit(stray, 3)).toBe(false);
  });

  it('refuses registering a patient in another unit with 403', () => {
    expect(() => assertMayRegisterIn(doctor, 3)).not.toThrow();
    expect(() => assertMayRegisterIn(admin, 4)).not.toThrow();
    expect(refusal(() => assertMayRegisterIn(doctor, 4))).toMatchObject({
      statusCode: 403,
      status: 'forbidden',
    });
  });
});

describe('only the own record, only unread messages', () => {
  it('refuses deleting the own account and new login details for it', () => {
    expect(refusal(() => assertMayDeleteAccount(admin, admin.userId))).toMatchObject({
      statusCode: 409,
      status: 'cannot_delete_self',
    });
    expect(refusal(() => assertMayResetCredentials(admin, admin.userId))).toMatchObject({
      statusCode: 409,
      status: 'own_account',
    });
    expect(() => assertMayDeleteAccount(admin, 99)).not.toThrow();
    expect(() => assertMayResetCredentials(admin, 99)).not.toThrow();
  });

  it('lets an unread message change and keeps a read one as history', () => {
    expect(() => assertMessageChangeable({ read_at: null })).not.toThrow();
    const error = refusal(() => assertMessageChangeable({ read_at: new Date() }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 409, status: 'already_read' });
  });
});
