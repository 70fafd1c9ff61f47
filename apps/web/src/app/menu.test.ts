import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '@portal/shared';
import type { Permission } from '@portal/shared';
import { menuFor, menuTree } from './menu';

// The server's own table of what each role holds (packages/shared, read by its policy): the
// menu follows whatever list the session carries.
const ADMIN: Permission[] = [...ROLE_PERMISSIONS.admin];
const DOCTOR: Permission[] = [...ROLE_PERMISSIONS.doctor];
const MONITOR: Permission[] = [...ROLE_PERMISSIONS.monitor];

const paths = (permissions: Permission[]) => menuFor({ permissions }).map((item) => item.path);

describe('menu', () => {
  it('shows administrators every screen, in the fixed order', () => {
    expect(paths(ADMIN)).toEqual([
      '/dashboard',
      '/doctors',
      '/admins',
      '/monitors',
      '/patients',
      '/units',
      '/visits/overdue',
      '/probe-sets',
      '/probes',
      '/probes/reception',
      '/alerts',
      '/queries',
      '/lab/unmatched',
      '/audit_trial',
      '/access_log',
      '/settings/visits',
      '/settings/probe_config',
      '/settings/documents/doctor',
      '/settings/documents/patient',
      '/settings/synevo',
      '/settings/phone',
      '/settings/retention',
      '/settings/smtp',
      '/settings/recruitment_target',
      '/settings/study_lock',
      '/data_import',
      '/messages',
      '/reports',
    ]);
  });

  it('shows doctors their patients, units and overdue visits only', () => {
    expect(paths(DOCTOR)).toEqual([
      '/dashboard',
      '/patients',
      '/units',
      '/visits/overdue',
      '/probe-sets',
      '/probes',
      '/probes/reception',
      '/alerts',
      '/queries',
      '/documents',
      '/messages',
    ]);
  });

  it('shows a monitor only what it may read, and its queries (ADR 051)', () => {
    expect(paths(MONITOR)).toEqual([
      '/dashboard',
      '/patients',
      '/units',
      '/visits/overdue',
      '/probes',
      '/queries',
      '/audit_trial',
    ]);
  });

  it('follows single permissions, not roles', () => {
    expect(paths(['queries.read'])).toEqual(['/queries']);
    expect(paths(['audit.read'])).toEqual(['/audit_trial']);
    expect(paths(['doctors.manage', 'units.read'])).toEqual(['/doctors', '/units']);
    expect(paths(['admins.manage'])).toEqual(['/admins']);
    expect(paths(['monitors.manage'])).toEqual(['/monitors']);
    expect(paths(['settings.manage'])).toEqual([
      '/settings/visits',
      '/settings/probe_config',
      '/settings/documents/doctor',
      '/settings/documents/patient',
      '/settings/synevo',
      '/settings/phone',
      '/settings/smtp',
      '/settings/recruitment_target',
    ]);
    expect(paths(['retention.manage'])).toEqual(['/settings/retention']);
    expect(paths(['records.lock'])).toEqual(['/settings/study_lock']);
    // The reading screen of the doctor panel's documents is for those who do not manage them.
    expect(paths(['documents.read'])).toEqual(['/documents']);
    expect(paths(['documents.read', 'settings.manage'])).not.toContain('/documents');
  });

  it('gathers the settings screens in one submenu', () => {
    const tree = menuTree(menuFor({ permissions: ADMIN }));
    expect(tree.map((entry) => (entry.kind === 'group' ? entry.label : entry.item.path))).toEqual([
      '/dashboard',
      '/doctors',
      '/admins',
      '/monitors',
      '/patients',
      '/units',
      '/visits/overdue',
      '/probe-sets',
      '/probes',
      '/probes/reception',
      '/alerts',
      '/queries',
      '/lab/unmatched',
      '/audit_trial',
      '/access_log',
      'nav.settings',
      '/data_import',
      '/messages',
      '/reports',
    ]);
    const settings = tree.find((entry) => entry.kind === 'group');
    expect(settings?.kind === 'group' && settings.items.map((item) => item.path)).toEqual([
      '/settings/visits',
      '/settings/probe_config',
      '/settings/documents/doctor',
      '/settings/documents/patient',
      '/settings/synevo',
      '/settings/phone',
      '/settings/retention',
      '/settings/smtp',
      '/settings/recruitment_target',
      '/settings/study_lock',
    ]);
    // No settings permission, no settings submenu.
    expect(menuTree(menuFor({ permissions: DOCTOR })).some((e) => e.kind === 'group')).toBe(false);
  });

  it('gives a doctor the own unit’s calendar after the units, on phones too', () => {
    const doctor = { permissions: [...DOCTOR, 'calendar.manage' as const], unit_id: 4 };
    const items = menuFor(doctor);
    expect(items.map((item) => item.path)).toEqual([
      '/dashboard',
      '/patients',
      '/units',
      '/units/calendar/4',
      '/visits/overdue',
      '/probe-sets',
      '/probes',
      '/probes/reception',
      '/alerts',
      '/queries',
      '/documents',
      '/messages',
    ]);
    expect(items.filter((item) => item.mobile).map((item) => item.path)).toEqual([
      '/patients',
      '/units',
      '/units/calendar/4',
    ]);
    // No unit, or every unit (administrators use the units list): no such entry.
    expect(paths([...DOCTOR, 'calendar.manage'])).toEqual([
      '/dashboard',
      '/patients',
      '/units',
      '/visits/overdue',
      '/probe-sets',
      '/probes',
      '/probes/reception',
      '/alerts',
      '/queries',
      '/documents',
      '/messages',
    ]);
    expect(
      menuFor({ permissions: [...ADMIN, 'calendar.manage'], unit_id: 4 }).map((i) => i.path),
    ).not.toContain('/units/calendar/4');
  });

  it('shows nothing to a session without permissions', () => {
    expect(paths([])).toEqual([]);
  });

  it('keeps the phone bar to doctors, patients and units', () => {
    expect(
      menuFor({ permissions: ADMIN })
        .filter((item) => item.mobile)
        .map((item) => item.path),
    ).toEqual(['/doctors', '/patients', '/units']);
  });
});
