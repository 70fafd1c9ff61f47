import { PERMISSIONS } from '@portal/shared';
import type { AccountRole, Permission } from '@portal/shared';

/**
 * Who may do what (ADR 004, docs/product-rules.md "Roles and reach"). Routes name the permission
 * they need; the rules about rows (which unit an actor reaches, only the own record, only unread
 * messages) live beside this in
 * `src/policies/`, one small file per entity, and services call them.
 */
export type { Permission };

const grants: Record<AccountRole, ReadonlySet<Permission>> = {
  // Administrators manage the whole study: every staff permission there is.
  admin: new Set<Permission>(PERMISSIONS.filter((permission) => permission !== 'patient.self')),
  // Doctors work with the patients of their own unit only (policies/units.ts) and are read-only
  // on units, doctors and administrators.
  doctor: new Set<Permission>([
    'units.read',
    'credentials.print',
    'doctors.lookup',
    'lookups.read',
    'patients.read',
    'patients.write',
    // The own unit's calendar only (policies/units.ts reachesUnit).
    'calendar.manage',
    // Visits of the own unit's patients (policies/visits.ts).
    'visits.read',
    'visits.write',
    // Samples and safety alerts of the own unit's patients (policies/probes.ts, alerts.ts).
    'probes.read',
    'probes.write',
    'probes.results',
    'alerts.read',
    'alerts.acknowledge',
    // Kit orders of the own unit's patients: read and order; deciding is the coordinators'.
    'probe_sets.read',
    'probe_sets.order',
    // Announcements: send; edit and delete only the own (policies/announcements.ts).
    'announcements.read',
    'announcements.write',
    'documents.read',
  ]),
  // Patients use the patient API only (`/api/me/*`, the own record): every staff route answers
  // them 403, and the row scopes confine them to the own patient row (policies/patients.ts).
  patient: new Set<Permission>(['patient.self']),
};

/** The signed-in user on whose behalf a request runs. */
export interface Actor {
  userId: number;
  sessionId: number;
  login: string;
  role: AccountRole;
  doctorId: number | null;
  /** The doctor's care unit; null for administrators and patients (who reach no unit). */
  unitId: number | null;
  /** A patient's own patient row; absent or null for staff. */
  patientId?: number | null;
  changedPasswordAt: Date | null;
}

export function can(actor: Actor, permission: Permission): boolean {
  return grants[actor.role].has(permission);
}

/** Every permission the role holds, in a stable order; sent to the web app with the session. */
export function permissionsOf(role: AccountRole): Permission[] {
  return [...grants[role]].sort();
}

/** How a route is reached: by anyone, by any signed-in user, or with a permission. */
export type Access = 'public' | 'authenticated' | Permission;
