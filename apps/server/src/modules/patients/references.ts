import type { patientCreateBody, patientUpdateBody } from '@portal/shared';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import {
  doctors,
  exclusionCriteria,
  inclusionCriteriaGroups,
  inclusionCriteriaSubgroups,
  medicines,
  units,
} from '../../db/schema.js';
import { invalid } from '../../lib/errors.js';
import { assertMayRegisterIn } from '../../policies/patients.js';
import type { Actor } from '../../plugins/policy.js';

export type CreateInput = z.output<typeof patientCreateBody>;
export type UpdateInput = z.output<typeof patientUpdateBody>;

type Errors = Record<string, string[]>;

/**
 * Checks every reference of a patient form against the study configuration; the unit must be
 * one the actor reaches (policy). Field errors are collected and refused together (422).
 */
export async function validateReferences(
  db: Database,
  actor: Actor,
  input: CreateInput | UpdateInput,
  keptMedicineIds: readonly number[] = [],
): Promise<void> {
  assertMayRegisterIn(actor, input.personal.unit_id);
  const errors: Errors = {};
  await checkUnitAndDoctor(db, input.personal, errors);
  await checkInclusion(db, input.inclusion, errors);
  if (input.exclusion.exclusion_criteria_id !== null) {
    const [criterion] = await db
      .select({ id: exclusionCriteria.id })
      .from(exclusionCriteria)
      .where(eq(exclusionCriteria.id, input.exclusion.exclusion_criteria_id));
    if (!criterion) errors['exclusion.exclusion_criteria_id'] = ['invalid'];
  }
  await checkMedicines(db, input.medicines, keptMedicineIds, errors);
  if (Object.keys(errors).length) throw invalid(errors);
}

async function checkUnitAndDoctor(
  db: Database,
  personal: CreateInput['personal'] | UpdateInput['personal'],
  errors: Errors,
) {
  const [unit] = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.id, personal.unit_id), isNull(units.deleted_at)));
  if (!unit) errors['personal.unit_id'] = ['required'];
  const [doctor] = await db
    .select({ unitId: doctors.unit_id })
    .from(doctors)
    .where(and(eq(doctors.id, personal.doctor_id), isNull(doctors.deleted_at)));
  if (!doctor) errors['personal.doctor_id'] = ['required'];
  else if (doctor.unitId !== personal.unit_id)
    errors['personal.doctor_id'] = ['doctor_not_in_unit'];
}

async function checkInclusion(db: Database, inclusion: CreateInput['inclusion'], errors: Errors) {
  if (inclusion.group_id) {
    const [group] = await db
      .select({ id: inclusionCriteriaGroups.id })
      .from(inclusionCriteriaGroups)
      .where(eq(inclusionCriteriaGroups.id, inclusion.group_id));
    if (!group) errors['inclusion.group_id'] = ['select_inclusion'];
  }
  if (!inclusion.subgroup_id) return;
  const [subgroup] = await db
    .select()
    .from(inclusionCriteriaSubgroups)
    .where(eq(inclusionCriteriaSubgroups.id, inclusion.subgroup_id));
  if (!subgroup || subgroup.group_id !== inclusion.group_id) {
    errors['inclusion.subgroup_id'] = ['select_inclusion'];
    return;
  }
  const allowed = subgroup.is_fixed_dose ? subgroup.doses.slice(0, 1) : subgroup.doses;
  if (inclusion.dose !== null && !allowed.includes(inclusion.dose))
    errors['inclusion.dose'] = ['invalid_dose'];
  if (inclusion.interval && !subgroup.allow_custom_interval)
    errors['inclusion.interval'] = ['invalid'];
}

async function checkMedicines(
  db: Database,
  chosen: CreateInput['medicines'],
  keptMedicineIds: readonly number[],
  errors: Errors,
) {
  const ids = chosen.map((m) => m.medicine_id);
  if (new Set(ids).size !== ids.length) errors.medicines = ['invalid'];
  // A hidden medicine is no longer offered, but one already on the record may stay.
  const offered = ids.filter((id) => !keptMedicineIds.includes(id));
  if (!offered.length) return;
  const found = await db
    .select({ id: medicines.id })
    .from(medicines)
    .where(and(inArray(medicines.id, offered), eq(medicines.is_visible, true)));
  if (found.length !== new Set(offered).size) errors.medicines = ['invalid'];
}
