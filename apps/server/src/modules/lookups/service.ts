import { casLink } from '@portal/shared';
import type { CriteriaGroup, ExclusionCriterion, Medicine } from '@portal/shared';
import { asc } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  exclusionCriteria,
  inclusionCriteriaGroups,
  inclusionCriteriaSubgroups,
  medicines,
} from '../../db/schema.js';

const flag = (n: number): 0 | 1 => (n ? 1 : 0);

export async function criteriaGroups(db: Queryable): Promise<CriteriaGroup[]> {
  const [groups, subgroups] = await Promise.all([
    db.select().from(inclusionCriteriaGroups).orderBy(asc(inclusionCriteriaGroups.nr)),
    db.select().from(inclusionCriteriaSubgroups).orderBy(asc(inclusionCriteriaSubgroups.id)),
  ]);
  return groups.map((g) => ({
    ...g,
    sub_groups: subgroups
      .filter((s) => s.group_id === g.id)
      .map((s) => ({
        ...s,
        is_fixed_dose: flag(s.is_fixed_dose),
        allow_custom_interval: flag(s.allow_custom_interval),
      })),
  }));
}

export async function exclusionCriteriaList(db: Queryable): Promise<ExclusionCriterion[]> {
  return db.select().from(exclusionCriteria).orderBy(asc(exclusionCriteria.id));
}

/** Every medicine; forms offer only the visible ones, a patient's record may name hidden ones. */
export async function medicineList(db: Queryable): Promise<Medicine[]> {
  const rows = await db.select().from(medicines).orderBy(asc(medicines.name));
  return rows.map((m) => ({ ...m, link: casLink(m.cas) }));
}
