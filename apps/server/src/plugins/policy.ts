import type { Permission, Role } from '@portal/shared';
import { notFound } from '../lib/errors.js';

/**
 * Who may do what (design.md §4), in one place. Routes name the permission they need; services
 * ask the scope helpers below which rows an actor may see.
 */
export type { Permission };

const grants: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set<Permission>([
    'units.read',
    'units.manage',
    'doctors.manage',
    'admins.manage',
    'credentials.print',
    'doctors.lookup',
    'lookups.read',
    'patients.read',
    'patients.write',
    'patients.all_units',
    'audit.read',
    'settings.manage',
  ]),
  // Doctors work with the patients of their own unit only (see unitScope).
  doctor: new Set<Permission>([
    'units.read',
    'credentials.print',
    'doctors.lookup',
    'lookups.read',
    'patients.read',
    'patients.write',
  ]),
};

/** The signed-in user on whose behalf a request runs. */
export interface Actor {
  userId: number;
  sessionId: number;
  login: string;
  role: Role;
  doctorId: number | null;
  /** The doctor's care unit; null for administrators. */
  unitId: number | null;
  changedPasswordAt: Date | null;
}

export function can(actor: Actor, permission: Permission): boolean {
  return grants[actor.role].has(permission);
}

/** Every permission the role holds, in a stable order; sent to the web app with the session. */
export function permissionsOf(role: Role): Permission[] {
  return [...grants[role]].sort();
}

/**
 * The care unit an actor is confined to, or null for all units. Data of another unit is answered
 * with 404, never 403, so that its existence is not revealed.
 */
export function unitScope(actor: Actor): number | null {
  if (actor.role === 'admin') return null;
  // Fail closed: a doctor without a unit reaches no unit (no unit has id 0).
  return actor.unitId ?? 0;
}

/** Throws 404 unless the actor may reach a row of the given unit. */
export function assertUnitReachable(actor: Actor, unitId: number): void {
  const scope = unitScope(actor);
  if (scope !== null && scope !== unitId) throw notFound();
}

/** How a route is reached: by anyone, by any signed-in user, or with a permission. */
export type Access = 'public' | 'authenticated' | Permission;
