import {
  IconAlertTriangle,
  IconBuildingHospital,
  IconCalendarEvent,
  IconCalendarExclamation,
  IconCalendarTime,
  IconChartBar,
  IconEye,
  IconFileImport,
  IconFileText,
  IconFiles,
  IconFlask,
  IconHistory,
  IconLock,
  IconNumbers,
  IconPackage,
  IconMail,
  IconMessageQuestion,
  IconPhone,
  IconPlugConnected,
  IconReportAnalytics,
  IconScan,
  IconSettings,
  IconShieldLock,
  IconSpeakerphone,
  IconStethoscope,
  IconTarget,
  IconTestPipe,
  IconUserSearch,
  IconUsers,
} from '@tabler/icons-react';
import type { Icon } from '@tabler/icons-react';
import type { Permission, SessionUser } from '@portal/shared';
import { can } from '../lib/permissions';

export interface MenuItem {
  path: string;
  label:
    | 'nav.dashboard'
    | 'nav.doctors'
    | 'nav.admins'
    | 'nav.monitors'
    | 'nav.patients'
    | 'nav.units'
    | 'nav.overdueVisits'
    | 'audit.title'
    | 'nav.accessLog'
    | 'nav.settingsVisits'
    | 'nav.unitCalendar'
    | 'nav.probes'
    | 'nav.reception'
    | 'nav.alerts'
    | 'nav.queries'
    | 'nav.settingsProbeConfig'
    | 'nav.probeSets'
    | 'nav.settingsDoctorDocuments'
    | 'nav.settingsPatientDocuments'
    | 'nav.settingsSynevo'
    | 'nav.settingsPhone'
    | 'nav.settingsRetention'
    | 'nav.settingsSmtp'
    | 'nav.settingsRecruitmentTarget'
    | 'nav.settingsStudyLock'
    | 'nav.messages'
    | 'nav.documents'
    | 'nav.dataImport'
    | 'nav.reports'
    | 'nav.unmatched';
  /** The submenu the entry sits in (settings has its own), under this heading. */
  group?: 'nav.settings';
  icon: Icon;
  /** Shown in the phone bottom bar too (doctors, patients, units). */
  mobile: boolean;
  /** The permission the item's screen needs; the server would refuse the user without it. */
  permission: Permission;
}

/** The menu in its fixed order (docs/product-rules.md "Fixed orders and words"). */
export const MENU_ITEMS: readonly MenuItem[] = [
  // The staff's start page (ADR 060); on phones reached through "more", the bar keeps its three.
  {
    path: '/dashboard',
    label: 'nav.dashboard',
    icon: IconChartBar,
    mobile: false,
    permission: 'dashboard.read',
  },
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
  // Monitor (CRA) accounts, managed like doctors' (ADR 051).
  {
    path: '/monitors',
    label: 'nav.monitors',
    icon: IconUserSearch,
    mobile: false,
    permission: 'monitors.manage',
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
    path: '/visits/overdue',
    label: 'nav.overdueVisits',
    icon: IconCalendarExclamation,
    mobile: false,
    permission: 'visits.read',
  },
  {
    path: '/probe-sets',
    label: 'nav.probeSets',
    icon: IconPackage,
    mobile: false,
    permission: 'probe_sets.read',
  },
  {
    path: '/probes',
    label: 'nav.probes',
    icon: IconTestPipe,
    mobile: false,
    permission: 'probes.read',
  },
  {
    path: '/probes/reception',
    label: 'nav.reception',
    icon: IconScan,
    mobile: false,
    permission: 'probes.write',
  },
  {
    path: '/alerts',
    label: 'nav.alerts',
    icon: IconAlertTriangle,
    mobile: false,
    permission: 'alerts.read',
  },
  // A monitor's queries of the reachable units (ADR 051): monitors, doctors, administrators.
  {
    path: '/queries',
    label: 'nav.queries',
    icon: IconMessageQuestion,
    mobile: false,
    permission: 'queries.read',
  },
  {
    path: '/lab/unmatched',
    label: 'nav.unmatched',
    icon: IconFlask,
    mobile: false,
    permission: 'lab.unmatched',
  },
  {
    path: '/audit_trial',
    label: 'audit.title',
    icon: IconHistory,
    mobile: false,
    permission: 'audit.read',
  },
  {
    path: '/access_log',
    label: 'nav.accessLog',
    icon: IconEye,
    mobile: false,
    permission: 'access_log.read',
  },
  {
    path: '/settings/visits',
    label: 'nav.settingsVisits',
    group: 'nav.settings',
    icon: IconCalendarTime,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/probe_config',
    label: 'nav.settingsProbeConfig',
    group: 'nav.settings',
    icon: IconNumbers,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/documents/doctor',
    label: 'nav.settingsDoctorDocuments',
    group: 'nav.settings',
    icon: IconFileText,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/documents/patient',
    label: 'nav.settingsPatientDocuments',
    group: 'nav.settings',
    icon: IconFileText,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/synevo',
    label: 'nav.settingsSynevo',
    group: 'nav.settings',
    icon: IconPlugConnected,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/phone',
    label: 'nav.settingsPhone',
    group: 'nav.settings',
    icon: IconPhone,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/retention',
    label: 'nav.settingsRetention',
    group: 'nav.settings',
    icon: IconShieldLock,
    mobile: false,
    permission: 'retention.manage',
  },
  {
    path: '/settings/smtp',
    label: 'nav.settingsSmtp',
    group: 'nav.settings',
    icon: IconMail,
    mobile: false,
    permission: 'settings.manage',
  },
  {
    path: '/settings/recruitment_target',
    label: 'nav.settingsRecruitmentTarget',
    group: 'nav.settings',
    icon: IconTarget,
    mobile: false,
    permission: 'settings.manage',
  },
  // The study lock (ADR 048): the permission that locks records locks the study too.
  {
    path: '/settings/study_lock',
    label: 'nav.settingsStudyLock',
    group: 'nav.settings',
    icon: IconLock,
    mobile: false,
    permission: 'records.lock',
  },
  // The doctor panel's documents to read; administrators manage them under settings instead.
  {
    path: '/documents',
    label: 'nav.documents',
    icon: IconFiles,
    mobile: false,
    permission: 'documents.read',
  },
  {
    path: '/data_import',
    label: 'nav.dataImport',
    icon: IconFileImport,
    mobile: false,
    permission: 'imports.manage',
  },
  {
    path: '/messages',
    label: 'nav.messages',
    icon: IconSpeakerphone,
    mobile: false,
    permission: 'announcements.read',
  },
  {
    path: '/reports',
    label: 'nav.reports',
    icon: IconReportAnalytics,
    mobile: false,
    permission: 'reports.generate',
  },
];

/** A top-level entry, or a submenu holding the entries of one group (in the menu's order). */
export type MenuEntry =
  | { kind: 'item'; item: MenuItem }
  | { kind: 'group'; label: NonNullable<MenuItem['group']>; icon: Icon; items: MenuItem[] };

const GROUP_ICONS: Record<NonNullable<MenuItem['group']>, Icon> = { 'nav.settings': IconSettings };

/** The sidebar's tree: grouped entries gathered where their group first appears. */
export function menuTree(items: readonly MenuItem[]): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const item of items) {
    if (!item.group) {
      entries.push({ kind: 'item', item });
      continue;
    }
    const group = entries.find(
      (entry): entry is Extract<MenuEntry, { kind: 'group' }> =>
        entry.kind === 'group' && entry.label === item.group,
    );
    if (group) group.items.push(item);
    else
      entries.push({
        kind: 'group',
        label: item.group,
        icon: GROUP_ICONS[item.group],
        items: [item],
      });
  }
  return entries;
}

/**
 * A doctor's own unit's calendar (ADR 004): administrators reach every unit's calendar from
 * the units list and have no own unit. On phones too: it is a doctor's daily screen.
 */
function ownCalendarItem(unitId: number): MenuItem {
  return {
    path: `/units/calendar/${unitId}`,
    label: 'nav.unitCalendar',
    icon: IconCalendarEvent,
    mobile: true,
    permission: 'calendar.manage',
  };
}

export function menuFor(
  user: Pick<SessionUser, 'permissions'> & Partial<Pick<SessionUser, 'unit_id'>>,
): MenuItem[] {
  const items = MENU_ITEMS.filter(
    (item) =>
      can(user, item.permission) &&
      // Who manages the panels' documents reads them there, not on the reading screen.
      !(item.path === '/documents' && can(user, 'settings.manage')),
  );
  if (user.unit_id && can(user, 'calendar.manage') && !can(user, 'patients.all_units')) {
    const units = items.findIndex((item) => item.path === '/units');
    items.splice(units + 1, 0, ownCalendarItem(user.unit_id));
  }
  return items;
}
