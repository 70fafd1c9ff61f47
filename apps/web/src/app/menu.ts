import {
  IconBuildingHospital,
  IconHistory,
  IconShieldLock,
  IconStethoscope,
  IconUsers,
} from '@tabler/icons-react';
import type { Icon } from '@tabler/icons-react';
import type { Permission, SessionUser } from '@portal/shared';
import { can } from '../lib/permissions';

export interface MenuItem {
  path: string;
  label: 'nav.doctors' | 'nav.admins' | 'nav.patients' | 'nav.units' | 'audit.title';
  icon: Icon;
  /** Shown in the phone bottom bar too (spec: doctors, patients, units). */
  mobile: boolean;
  /** The permission the item's screen needs; the server would refuse the user without it. */
  permission: Permission;
}

/** Only entries whose screens exist yet; the spec's order. */
export const MENU_ITEMS: readonly MenuItem[] = [
  {
    path: '/doctors',
    label: 'nav.doctors',
    icon: IconStethoscope,
    mobile: true,
    permission: 'doctors.manage',
  },
  {
    path: '/admins',
    label: 'nav.admins',
    icon: IconShieldLock,
    mobile: false,
    permission: 'admins.manage',
  },
  {
    path: '/patients',
    label: 'nav.patients',
    icon: IconUsers,
    mobile: true,
    permission: 'patients.read',
  },
  {
    path: '/units',
    label: 'nav.units',
    icon: IconBuildingHospital,
    mobile: true,
    permission: 'units.read',
  },
  {
    path: '/audit_trial',
    label: 'audit.title',
    icon: IconHistory,
    mobile: false,
    permission: 'audit.read',
  },
];

export function menuFor(user: Pick<SessionUser, 'permissions'>): MenuItem[] {
  return MENU_ITEMS.filter((item) => can(user, item.permission));
}
