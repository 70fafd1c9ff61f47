import { createBrowserRouter } from 'react-router';
import { AppLayout } from './app/app-layout';
import { HomeRedirect, PublicOnly, RequirePermission, RequireSession } from './app/guards';
import { RouteError } from './app/route-error';
import { AdminCreateRoute, AdminEditRoute } from './features/admins/admin-form-route';
import { AdminsPage } from './features/admins/admins-page';
import { ChangePasswordPage } from './features/auth/change-password-page';
import { LoginPage } from './features/auth/login-page';
import { DoctorCreateRoute, DoctorEditRoute } from './features/doctors/doctor-form-route';
import { DoctorsPage } from './features/doctors/doctors-page';
import { UnitsPage } from './features/units/units-page';

// The patient screens carry the rich-text editor and date pickers: they load on first visit, so
// the login page and the lists stay small.
const lazyPage = <K extends string>(
  load: () => Promise<Record<K, React.ComponentType>>,
  name: K,
) => ({
  lazy: async () => ({ Component: (await load())[name] }),
});

/**
 * The route table (spec §2): the composition root, and the only module that imports features.
 * /login is the only route without a session; `/` and unknown paths redirect.
 */
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    children: [
      { element: <PublicOnly />, children: [{ path: '/login', element: <LoginPage /> }] },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: '/changepassword', element: <ChangePasswordPage /> },
              { path: '/units', element: <UnitsPage /> },
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
              // Not behind RequirePermission: a doctor who opens it sees the server's refusal.
              {
                path: '/audit_trial',
                ...lazyPage(() => import('./features/audit/audit-page'), 'AuditPage'),
              },
              {
                element: <RequirePermission permission="doctors.manage" />,
                children: [
                  {
                    path: '/doctors',
                    element: <DoctorsPage />,
                    children: [
                      { path: 'create', element: <DoctorCreateRoute /> },
                      { path: ':id/edit', element: <DoctorEditRoute /> },
                    ],
                  },
                ],
              },
              {
                element: <RequirePermission permission="admins.manage" />,
                children: [
                  {
                    path: '/admins',
                    element: <AdminsPage />,
                    children: [
                      { path: 'create', element: <AdminCreateRoute /> },
                      { path: ':id/edit', element: <AdminEditRoute /> },
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
