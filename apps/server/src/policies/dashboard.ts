import { forbidden } from '../lib/errors.js';
import type { Actor } from '../plugins/policy.js';
import { reachesUnit, unitsInReach } from './units.js';

/**
 * The units whose figures the dashboard shows an actor (ADR 060), decided by the unit-reach
 * policy (units.ts), so a role that reaches more units (monitors) sees them without a change
 * here: a named unit must be within reach (403 otherwise: the dashboard names no patient, so
 * refusing says nothing a doctor may not know); without one, every unit within reach, `null`
 * meaning all units.
 */
export function dashboardUnits(actor: Actor, unitId: number | undefined): number[] | null {
  if (unitId !== undefined) {
    if (!reachesUnit(actor, unitId)) throw forbidden();
    return [unitId];
  }
  // A monitor's assigned units (unitScope alone would answer none for a monitor); no unit at
  // all is unit 0, which none has (fail closed).
  const reach = unitsInReach(actor);
  if (reach === null) return null;
  return reach.length ? [...reach] : [0];
}
