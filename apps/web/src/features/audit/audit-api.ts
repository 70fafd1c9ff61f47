import { useQuery } from '@tanstack/react-query';
import type { CriteriaGroup, ExclusionCriterion, Medicine, Unit } from '@portal/shared';
import type { DateRange } from '../../components/date-range';
import { api } from '../../lib/api-client';
import type { ReferenceNames } from './audit-labels';

export const AUDIT = 'audit';

export interface AuditFilters {
  doctorIds: string[];
  patientIds: string[];
  range: DateRange;
}

interface Option {
  id: number;
  firstname: string;
  surname: string;
  pesel?: string;
}

/** GET /api/audit_trial filters: the ids travel comma-separated, the range as two days. */
export function auditParams(filters: AuditFilters) {
  return {
    doctorIds: filters.doctorIds.join(',') || undefined,
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
  };
}

/** Pickers: doctors and patients that are not deleted (asked for only by administrators). */
export function useDoctorOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['doctors', 'all'],
    queryFn: ({ signal }) => api.request<{ data: Option[] }>('/doctors/all', { signal }),
    select: (answer) => answer.data,
    enabled,
  });
}

export function usePatientOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['patients', 'all'],
    queryFn: ({ signal }) => api.request<{ data: Option[] }>('/patients/all', { signal }),
    select: (answer) => answer.data,
    enabled,
  });
}

function useLookup<T>(path: string, enabled: boolean): T[] {
  const query = useQuery({
    queryKey: ['audit', 'names', path],
    queryFn: ({ signal }) => api.request<{ data: T[] }>(path, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
  return query.data?.data ?? [];
}

/**
 * Names for the ids an audit entry may hold (medicines, doctors, units, criteria), from the same
 * lookups the forms use; an id not found stays an id.
 */
export function useReferenceNames(enabled: boolean): ReferenceNames {
  const medicines = useLookup<Medicine>('/medicine', enabled);
  const doctors = useLookup<Option>('/doctors/all', enabled);
  const units = useLookup<Unit>('/units/all', enabled);
  const groups = useLookup<CriteriaGroup>('/inclusion_criteria_group', enabled);
  const exclusions = useLookup<ExclusionCriterion>('/exclusion_criteria', enabled);
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
