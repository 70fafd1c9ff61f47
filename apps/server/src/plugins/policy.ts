import { ROLE_PERMISSIONS } from '@portal/shared';
import type { AccountRole, Permission } from '@portal/shared';

/**
 * Who may do what (ADR 004, docs/product-rules.md "Roles and reach"). Routes name the permission
 * they need; the rules about rows (which unit an actor reaches, only the own record, only unread
 * messages) live beside this in
 * `src/policies/`, one small file per entity, and services call them.
 */
export type { Permission };

// The table itself lives in packages/shared (ROLE_PERMISSIONS), so the web's tests read the
// same one; this file decides with it.
const grants: Record<AccountRole, ReadonlySet<Permission>> = {
  admin: new Set(ROLE_PERMISSIONS.admin),
  doctor: new Set(ROLE_PERMISSIONS.doctor),
  patient: new Set(ROLE_PERMISSIONS.patient),
  monitor: new Set(ROLE_PERMISSIONS.monitor),
  iod: new Set(ROLE_PERMISSIONS.iod),
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
  /** A monitor's assigned units (ADR 051); absent for everyone else. */
  unitIds?: readonly number[];
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
