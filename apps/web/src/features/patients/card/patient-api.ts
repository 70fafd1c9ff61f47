import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CriteriaGroup,
  ExclusionCriterion,
  LoginDetails,
  Medicine,
  PatientDetail,
} from '@portal/shared';
import { api } from '../../../lib/api-client';

/** Query keys start with 'patients', so every write on a patient refreshes the list as well. */
export const PATIENTS = 'patients';

export const patientKey = (id: number) => [PATIENTS, 'detail', id] as const;

export function usePatient(id: number) {
  return useQuery({
    queryKey: patientKey(id),
    queryFn: ({ signal }) => api.request<PatientDetail>(`/patients/${id}`, { signal }),
    enabled: id > 0,
  });
}

export function useDeletePatient(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ status: 'success' }>(`/patients/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PATIENTS] }),
  });
}

/** Sets a new generated password; the old one stops working. Returned once, to be printed. */
export function useResetPatientPassword(id: number) {
  return useMutation({
    mutationFn: () => api.get<LoginDetails>(`/patients/print_password/${id}`),
  });
}

// The study configuration changes only by an import: fetched once per session.
const lookup = { staleTime: Infinity, gcTime: Infinity } as const;

export function useCriteriaGroups() {
  return useQuery({
    queryKey: ['lookups', 'inclusion_criteria_group'],
    queryFn: ({ signal }) =>
      api.request<{ data: CriteriaGroup[] }>('/inclusion_criteria_group', { signal }),
    select: (answer) => answer.data,
    ...lookup,
  });
}

export function useExclusionCriteria() {
  return useQuery({
    queryKey: ['lookups', 'exclusion_criteria'],
    queryFn: ({ signal }) =>
      api.request<{ data: ExclusionCriterion[] }>('/exclusion_criteria', { signal }),
    select: (answer) => answer.data,
    ...lookup,
  });
}

export function useMedicines() {
  return useQuery({
    queryKey: ['lookups', 'medicine'],
    queryFn: ({ signal }) => api.request<{ data: Medicine[] }>('/medicine', { signal }),
    select: (answer) => answer.data,
    ...lookup,
  });
}
