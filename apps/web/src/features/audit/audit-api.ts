import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@portal/shared';
import type { DateRange } from '../../components/date-range';
import { api } from '../../lib/api-client';

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

/** GET /api/audit_trial: paged, newest first; the ids travel comma-separated. */
export function useAuditList(page: number, limit: number, filters: AuditFilters) {
  const query = {
    page,
    limit,
    doctorIds: filters.doctorIds.join(',') || undefined,
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
  };
  return useQuery({
    queryKey: [AUDIT, 'list', query],
    queryFn: ({ signal }) =>
      api.request<{ data: AuditEntry[]; total: number }>('/audit_trial', { query, signal }),
    placeholderData: keepPreviousData,
  });
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
