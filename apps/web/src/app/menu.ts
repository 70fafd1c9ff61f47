import {
  IconBuildingHospital,
  IconHistory,
  IconShieldLock,
  IconStethoscope,
  IconUsers,
} from '@tabler/icons-react';
import type { Icon } from '@tabler/icons-react';
import type { SessionUser } from '@portal/shared';

export interface MenuItem {
  path: string;
  label: 'nav.doctors' | 'nav.admins' | 'nav.patients' | 'nav.units' | 'audit.title';
  icon: Icon;
  /** Shown in the phone bottom bar too (spec: doctors, patients, units). */
  mobile: boolean;
  adminOnly: boolean;
}

/** Only entries whose screens exist yet; the spec's order. */
const ITEMS: MenuItem[] = [
  { path: '/doctors', label: 'nav.doctors', icon: IconStethoscope, mobile: true, adminOnly: true },
  { path: '/admins', label: 'nav.admins', icon: IconShieldLock, mobile: false, adminOnly: true },
  { path: '/patients', label: 'nav.patients', icon: IconUsers, mobile: true, adminOnly: false },
  {
    path: '/units',
    label: 'nav.units',
    icon: IconBuildingHospital,
    mobile: true,
    adminOnly: false,
  },
  // 'Historia zmian': the server answers 403 to doctors, so they get no entry.
  {
    path: '/audit_trial',
    label: 'audit.title',
    icon: IconHistory,
    mobile: false,
    adminOnly: true,
  },
];

export function menuFor(user: Pick<SessionUser, 'role'>): MenuItem[] {
  return ITEMS.filter((item) => user.role === 'admin' || !item.adminOnly);
}
