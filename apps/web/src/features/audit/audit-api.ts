import { useDoctorOptions } from '../../api/doctors';
import { useCriteriaGroups, useExclusionCriteria, useMedicines } from '../../api/lookups';
import { useUnitOptions } from '../../api/units';
import type { ReferenceNames } from './audit-labels';

/**
 * Names for the ids an audit entry may hold (medicines, doctors, units, criteria), from the same
 * cached lookups the forms use; an id not found stays an id.
 */
export function useReferenceNames(enabled: boolean): ReferenceNames {
  const medicines = useMedicines({ enabled }).data ?? [];
  const doctors = useDoctorOptions({ enabled }).data ?? [];
  const units = useUnitOptions({ enabled }).data ?? [];
  const groups = useCriteriaGroups({ enabled }).data ?? [];
  const exclusions = useExclusionCriteria({ enabled }).data ?? [];
  const byId = <T extends { id: number }>(rows: T[], name: (row: T) => string) =>
    new Map(rows.map((row) => [String(row.id), name(row)]));
  return {
    medicine_id: byId(medicines, (m) => m.name),
    doctor_id: byId(doctors, (d) => `${d.surname} ${d.firstname}`),
    unit_id: byId(units, (u) => u.name),
    group_id: byId(groups, (g) => `${g.nr}: ${g.name}`),
    subgroup_id: byId(
      groups.flatMap((g) => g.sub_groups),
      (s) => s.name,
    ),
    exclusion_criteria_id: byId(exclusions, (e) => e.name),
  };
}
