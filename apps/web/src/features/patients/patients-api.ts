import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CriteriaGroup,
  Doctor,
  ExclusionCriterion,
  Medicine,
  PatientDetail,
  Unit,
  patientCreateBody,
  patientUpdateBody,
} from '@portal/shared';
import type { z } from 'zod';
import { api } from '../../lib/api-client';

/** First part of every patients query key; writes invalidate it. */
export const PATIENTS = 'patients';

// The study configuration changes only with an imported configuration file.
const LOOKUP_STALE_MS = 10 * 60 * 1000;

export function useCriteriaGroups() {
  return useQuery({
    queryKey: ['lookups', 'inclusion_criteria_group'],
    queryFn: ({ signal }) =>
      api.request<{ data: CriteriaGroup[] }>('/inclusion_criteria_group', { signal }),
    select: (answer) => answer.data,
    staleTime: LOOKUP_STALE_MS,
  });
}

export function useExclusionCriteria() {
  return useQuery({
    queryKey: ['lookups', 'exclusion_criteria'],
    queryFn: ({ signal }) =>
      api.request<{ data: ExclusionCriterion[] }>('/exclusion_criteria', { signal }),
    select: (answer) => answer.data,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** Every medicine; forms offer the visible ones, a patient's record may name hidden ones. */
export function useMedicines() {
  return useQuery({
    queryKey: ['lookups', 'medicine'],
    queryFn: ({ signal }) => api.request<{ data: Medicine[] }>('/medicine', { signal }),
    select: (answer) => answer.data,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** GET /api/units/all: units that are not deleted. */
export function useUnits() {
  return useQuery({
    queryKey: ['units', 'all'],
    queryFn: ({ signal }) => api.request<{ data: Unit[] }>('/units/all', { signal }),
    select: (answer) => answer.data,
  });
}

/**
 * GET /api/doctors/all, optionally of one unit; a doctor user always gets the own unit's.
 * `enabled: false` keeps a select waiting for its unit.
 */
export function useDoctors(unitId?: number | null, enabled = true) {
  return useQuery({
    queryKey: ['doctors', 'all', unitId ?? null],
    queryFn: ({ signal }) =>
      api.request<{ data: Doctor[] }>('/doctors/all', {
        signal,
        query: { unit_id: unitId ?? undefined },
      }),
    select: (answer) => answer.data,
    enabled,
  });
}

export function usePatient(id: number | null) {
  return useQuery({
    queryKey: [PATIENTS, 'detail', id],
    queryFn: ({ signal }) => api.request<PatientDetail>(`/patients/${id}`, { signal }),
    enabled: id !== null,
    // The edit wizard copies the record once; a background refetch would not reach the form.
    staleTime: 0,
  });
}

export type PeselStatus = 'success' | 'exist_patient' | 'validation_error';

/** GET /api/patients/validate_pesel for an 11-digit PESEL; other values are not asked about. */
export function usePeselStatus(pesel: string, exceptId?: number) {
  const complete = /^\d{11}$/.test(pesel);
  return useQuery({
    queryKey: [PATIENTS, 'validate_pesel', pesel, exceptId ?? null],
    queryFn: ({ signal }) =>
      api.request<{ status: PeselStatus }>('/patients/validate_pesel', {
        signal,
        query: { pesel, except_id: exceptId },
      }),
    select: (answer) => answer.status,
    enabled: complete,
    staleTime: 0,
  });
}

export interface RegisteredPatient {
  id: number;
  login: string;
  password: string;
  firstname: string;
  surname: string;
  /** Where the patient signs in, as printed on the sheet. */
  login_url: string;
}

export function useRegisterPatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof patientCreateBody>) =>
      api.post<{ status: 'success'; patient: RegisteredPatient }>('/patients', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PATIENTS] }),
  });
}

export function useUpdatePatient(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof patientUpdateBody>) =>
      api.put<{ status: 'success' }>(`/patients/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PATIENTS] }),
  });
}
