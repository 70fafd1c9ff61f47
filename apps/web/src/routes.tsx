import { createBrowserRouter } from 'react-router';
import { AppLayout } from './app/app-layout';
import { HomeRedirect, PublicOnly, RequireAdmin, RequireSession } from './app/guards';
import { RouteError } from './app/route-error';
import { AdminCreateRoute, AdminEditRoute } from './features/admins/admin-form-route';
import { AdminsPage } from './features/admins/admins-page';
import { AuditPage } from './features/audit/audit-page';
import { ChangePasswordPage } from './features/auth/change-password-page';
import { LoginPage } from './features/auth/login-page';
import { DoctorCreateRoute, DoctorEditRoute } from './features/doctors/doctor-form-route';
import { DoctorsPage } from './features/doctors/doctors-page';
import { PatientCardPage } from './features/patients/card/patient-card-page';
import { PatientsPage } from './features/patients/list/patients-page';
import { PatientCreatePage } from './features/patients/wizard/patient-create-page';
import { PatientEditPage } from './features/patients/wizard/patient-edit-page';
import { UnitsPage } from './features/units/units-page';

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
              { path: '/patients', element: <PatientsPage /> },
              { path: '/patients/create', element: <PatientCreatePage /> },
              { path: '/patients/:id/edit', element: <PatientEditPage /> },
              { path: '/patients/card/:patientId', element: <PatientCardPage /> },
              // Not behind RequireAdmin: a doctor who opens it sees the server's refusal.
              { path: '/audit_trial', element: <AuditPage /> },
              {
                element: <RequireAdmin />,
                children: [
                  {
                    path: '/doctors',
                    element: <DoctorsPage />,
                    children: [
                      { path: 'create', element: <DoctorCreateRoute /> },
                      { path: ':id/edit', element: <DoctorEditRoute /> },
                    ],
                  },
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
