import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@portal/shared';
import { can, reachesUnitCalendar } from './permissions';

describe('can', () => {
  it('answers from the permissions the server sent', () => {
    const doctor = { permissions: ['units.read', 'patients.read'] } as const;
    expect(can({ permissions: [...doctor.permissions] }, 'patients.read')).toBe(true);
    expect(can({ permissions: [...doctor.permissions] }, 'audit.read')).toBe(false);
    expect(can({ permissions: ['audit.read'] }, 'audit.read')).toBe(true);
  });

  it('grants nothing without a user or without permissions', () => {
    expect(can(null, 'units.read')).toBe(false);
    expect(can(undefined, 'units.read')).toBe(false);
    expect(can({ permissions: [] }, 'units.read')).toBe(false);
  });

  it('grants nothing to a user stored before permissions travelled with the session', () => {
    // An older localStorage 'portal.user' has a role but no list; it must not crash.
    const legacy = { role: 'admin' } as unknown as SessionUser;
    expect(can(legacy, 'doctors.manage')).toBe(false);
  });
});

describe('reachesUnitCalendar', () => {
  it('opens every unit to administrators and the own unit to a doctor', () => {
    const admin = {
      permissions: ['calendar.manage', 'patients.all_units'] as const,
      unit_id: null,
    };
    const doctor = { permissions: ['calendar.manage'] as const, unit_id: 3 };
    expect(reachesUnitCalendar({ ...admin, permissions: [...admin.permissions] }, 7)).toBe(true);
    expect(reachesUnitCalendar({ ...doctor, permissions: [...doctor.permissions] }, 3)).toBe(true);
    expect(reachesUnitCalendar({ ...doctor, permissions: [...doctor.permissions] }, 7)).toBe(false);
    expect(reachesUnitCalendar({ permissions: [], unit_id: 3 }, 3)).toBe(false);
    expect(reachesUnitCalendar(null, 3)).toBe(false);
  });
});
