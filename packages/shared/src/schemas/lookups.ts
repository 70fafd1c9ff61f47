import { z } from 'zod';

export const subgroup = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Comma-separated names of the combination's medicines. */
  medicines: z.string(),
  /** Dose options in mg; a fixed-dose subgroup has one tablet dose, the first. */
  doses: z.array(z.number()),
  is_fixed_dose: z.union([z.literal(0), z.literal(1)]),
  allow_custom_interval: z.union([z.literal(0), z.literal(1)]),
});
export type Subgroup = z.infer<typeof subgroup>;

export const criteriaGroup = z.object({
  id: z.number().int(),
  nr: z.number().int(),
  name: z.string(),
  sub_groups: z.array(subgroup),
});
export type CriteriaGroup = z.infer<typeof criteriaGroup>;

export const exclusionCriterion = z.object({ id: z.number().int(), name: z.string() });
export type ExclusionCriterion = z.infer<typeof exclusionCriterion>;

export const medicine = z.object({
  id: z.number().int(),
  name: z.string(),
  inn: z.string(),
  cas: z.string(),
  /** External reference page built from the CAS number. */
  link: z.string(),
  doses: z.array(z.number()),
  is_visible: z.boolean(),
});
export type Medicine = z.infer<typeof medicine>;

export const criteriaGroupList = z.object({ data: z.array(criteriaGroup) });
export const exclusionCriteriaList = z.object({ data: z.array(exclusionCriterion) });
export const medicineList = z.object({ data: z.array(medicine) });

export const casLink = (cas: string) =>
  `https://commonchemistry.cas.org/detail?cas_rn=${encodeURIComponent(cas)}`;
