import { createBrowserRouter } from 'react-router';
import type { ComponentType } from 'react';
import { HomeRedirect, PublicOnly, RequirePermission, RequireSession } from './app/guards';
import { PageLoader } from './app/page-loader';
import { RouteError } from './app/route-error';
import { LoginPage } from './features/auth/login-page';
import { loadAppWords } from './i18n/i18n';

/**
 * Every screen but the login page loads its code on first visit (ADR 019): the login route
 * carries only what it shows, and the signed-in layout, the lists, the editor and the date
 * pickers come in their own chunks. The router's `lazy` fetches a screen's chunk before it
 * renders it (in parallel for a layout and its page), so no Suspense boundary is needed; the
 * first render of a deep link shows the page loader meanwhile. The signed-in screens' words
 * arrive the same way, beside the first screen's code: no screen renders before them.
 */
const lazyPage = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => ({
  lazy: async () => {
    const [module] = await Promise.all([load(), loadAppWords()]);
    return { Component: module[name] };
  },
});

/**
 * The route table (docs/product-rules.md "Screens and layout"): the composition root, and the only
 * module that imports features.
 * /login is the only route without a session; `/` and unknown paths redirect.
 */
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { element: <PublicOnly />, children: [{ path: '/login', element: <LoginPage /> }] },
      {
        element: <RequireSession />,
        children: [
          {
            ...lazyPage(() => import('./app/app-layout'), 'AppLayout'),
            children: [
              {
                path: '/changepassword',
                ...lazyPage(
                  () => import('./features/auth/change-password-page'),
                  'ChangePasswordPage',
                ),
              },
              // Every signed-in user's own e-mail choices (ADR 062).
              {
                path: '/settings/notifications',
                ...lazyPage(
                  () => import('./features/notifications/preferences-page'),
                  'NotificationPreferencesPage',
                ),
              },
              {
                element: <RequirePermission permission="dashboard.read" />,
                children: [
                  {
                    path: '/dashboard',
                    ...lazyPage(
                      () => import('./features/dashboard/dashboard-page'),
                      'DashboardPage',
                    ),
                  },
                ],
              },
              {
                path: '/units',
                ...lazyPage(() => import('./features/units/units-page'), 'UnitsPage'),
              },
              // The server answers another unit's calendar 404; the page says so.
              {
                path: '/units/calendar/:unitId',
                ...lazyPage(() => import('./features/calendar/calendar-page'), 'CalendarPage'),
              },
              {
                path: '/patients',
                ...lazyPage(() => import('./features/patients/list/patients-page'), 'PatientsPage'),
              },
              {
                path: '/patients/create',
                ...lazyPage(
                  () => import('./features/patients/wizard/patient-create-page'),
                  'PatientCreatePage',
                ),
              },
              {
                path: '/patients/:id/edit',
                ...lazyPage(
                  () => import('./features/patients/wizard/patient-edit-page'),
                  'PatientEditPage',
                ),
              },
              {
                path: '/patients/card/:patientId',
                ...lazyPage(
                  () => import('./features/patients/card/patient-card-page'),
                  'PatientCardPage',
                ),
              },
              {
                path: '/patients/:patientId/visits/:id',
                ...lazyPage(() => import('./features/visits/visit-card-page'), 'VisitCardPage'),
              },
              // Not behind RequirePermission: a doctor who opens it sees the server's refusal.
              {
                path: '/audit_trial',
                ...lazyPage(() => import('./features/audit/audit-page'), 'AuditPage'),
              },
              // Not behind RequirePermission either: a doctor sees the server's refusal.
              {
                path: '/access_log',
                ...lazyPage(() => import('./features/access-log/access-log-page'), 'AccessLogPage'),
              },
              {
                element: <RequirePermission permission="doctors.manage" />,
                children: [
                  {
                    path: '/doctors',
                    ...lazyPage(() => import('./features/doctors/doctors-page'), 'DoctorsPage'),
                    children: [
                      {
                        path: 'create',
                        ...lazyPage(
                          () => import('./features/doctors/doctor-form-route'),
                          'DoctorCreateRoute',
                        ),
                      },
                      {
                        path: ':id/edit',
                        ...lazyPage(
                          () => import('./features/doctors/doctor-form-route'),
                          'DoctorEditRoute',
                        ),
                      },
                    ],
                  },
                ],
              },
              {
                element: <RequirePermission permission="monitors.manage" />,
                children: [
                  {
                    path: '/monitors',
                    ...lazyPage(() => import('./features/monitors/monitors-page'), 'MonitorsPage'),
                    children: [
                      {
                        path: 'create',
                        ...lazyPage(
                          () => import('./features/monitors/monitor-form-route'),
                          'MonitorCreateRoute',
                        ),
                      },
                      {
                        path: ':id/edit',
                        ...lazyPage(
                          () => import('./features/monitors/monitor-form-route'),
                          'MonitorEditRoute',
                        ),
                      },
                    ],
                  },
                ],
              },
              {
                element: <RequirePermission permission="probes.read" />,
                children: [
                  {
                    path: '/probes',
                    ...lazyPage(() => import('./features/probes/probes-page'), 'ProbesPage'),
                  },
                  {
                    path: '/probes/:id',
                    ...lazyPage(
                      () => import('./features/probes/probe-detail-page'),
                      'ProbeDetailPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="probes.write" />,
                children: [
                  {
                    path: '/probes/reception',
                    ...lazyPage(() => import('./features/probes/reception-page'), 'ReceptionPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="probe_sets.read" />,
                children: [
                  {
                    path: '/probe-sets',
                    ...lazyPage(
                      () => import('./features/probe-sets/probe-sets-page'),
                      'ProbeSetsPage',
                    ),
                  },
                  {
                    path: '/probe-sets/:id',
                    ...lazyPage(
                      () => import('./features/probe-sets/probe-set-detail-page'),
                      'ProbeSetDetailPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="announcements.read" />,
                children: [
                  {
                    path: '/messages',
                    ...lazyPage(
                      () => import('./features/announcements/announcements-page'),
                      'AnnouncementsPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="documents.read" />,
                children: [
                  {
                    path: '/documents',
                    ...lazyPage(
                      () => import('./features/documents/documents-page'),
                      'DocumentsPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="imports.manage" />,
                children: [
                  {
                    path: '/data_import',
                    ...lazyPage(() => import('./features/imports/import-page'), 'ImportPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="reports.generate" />,
                children: [
                  {
                    path: '/reports',
                    ...lazyPage(() => import('./features/reports/reports-page'), 'ReportsPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="lab.unmatched" />,
                children: [
                  {
                    path: '/lab/unmatched',
                    ...lazyPage(() => import('./features/lab/unmatched-page'), 'UnmatchedPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="alerts.read" />,
                children: [
                  {
                    path: '/alerts',
                    ...lazyPage(() => import('./features/alerts/alerts-page'), 'AlertsPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="queries.read" />,
                children: [
                  {
                    path: '/queries',
                    ...lazyPage(() => import('./features/queries/queries-page'), 'QueriesPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="visits.read" />,
                children: [
                  {
                    path: '/visits/overdue',
                    ...lazyPage(() => import('./features/visits/overdue-page'), 'OverduePage'),
                  },
                  // The visits of a week or of a window, as the dashboard's tiles count them.
                  {
                    path: '/visits',
                    ...lazyPage(() => import('./features/visits/visits-page'), 'VisitsPage'),
                  },
                ],
              },
              {
                element: <RequirePermission permission="settings.manage" />,
                children: [
                  {
                    path: '/settings/visits',
                    ...lazyPage(
                      () => import('./features/settings/visits-page'),
                      'VisitsSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/probe_config',
                    ...lazyPage(
                      () => import('./features/settings/probe-config-page'),
                      'ProbeConfigPage',
                    ),
                  },
                  {
                    path: '/settings/documents/:panel',
                    ...lazyPage(
                      () => import('./features/settings/documents-page'),
                      'DocumentsSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/synevo',
                    ...lazyPage(
                      () => import('./features/settings/synevo-page'),
                      'SynevoSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/phone',
                    ...lazyPage(
                      () => import('./features/settings/phone-page'),
                      'PhoneSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/retention',
                    ...lazyPage(
                      () => import('./features/settings/retention-page'),
                      'RetentionSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/recruitment_target',
                    ...lazyPage(
                      () => import('./features/settings/recruitment-target-page'),
                      'RecruitmentTargetSettingsPage',
                    ),
                  },
                  {
                    path: '/settings/smtp',
                    ...lazyPage(
                      () => import('./features/notifications/smtp-page'),
                      'SmtpSettingsPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="records.lock" />,
                children: [
                  {
                    path: '/settings/study_lock',
                    ...lazyPage(
                      () => import('./features/settings/study-lock-page'),
                      'StudyLockSettingsPage',
                    ),
                  },
                ],
              },
              {
                element: <RequirePermission permission="admins.manage" />,
                children: [
                  {
                    path: '/admins',
                    ...lazyPage(() => import('./features/admins/admins-page'), 'AdminsPage'),
                    children: [
                      {
                        path: 'create',
                        ...lazyPage(
                          () => import('./features/admins/admin-form-route'),
                          'AdminCreateRoute',
                        ),
                      },
                      {
                        path: ':id/edit',
                        ...lazyPage(
                          () => import('./features/admins/admin-form-route'),
                          'AdminEditRoute',
                        ),
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <HomeRedirect /> },
    ],
  },
]);
