import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NextProjectNumber,
  PatientCreated,
  PatientDetail,
  PeselStatus,
  SuccessResponse,
  patientCreateBody,
  patientUpdateBody,
} from '@portal/shared';
import type { z } from 'zod';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';
import { saveWithReason } from '../../components/reason-dialog';

/** GET /api/patients/{id}, for the card and the edit wizard; `null` waits for a valid id. */
export function usePatient(id: number | null) {
  return useQuery({
    queryKey: queryKeys.patient(id),
    queryFn: ({ signal }) => api.request<PatientDetail>(`/patients/${id}`, { signal }),
    enabled: id !== null,
    // The edit wizard copies the record once; a background refetch would not reach the form.
    staleTime: 0,
  });
}

/** GET /api/patients/validate_pesel for an 11-digit PESEL; other values are not asked about. */
export function usePeselStatus(pesel: string, exceptId?: number) {
  const complete = /^\d{11}$/.test(pesel);
  return useQuery({
    queryKey: queryKeys.peselStatus(pesel, exceptId ?? null),
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

/**
 * GET /api/patients/next_project_number: the number the registration wizard offers (ADR 041),
 * asked afresh each time the wizard opens (another registration may have taken it).
 */
export function useNextProjectNumber() {
  return useQuery({
    queryKey: queryKeys.nextProjectNumber(),
    queryFn: ({ signal }) =>
      api.request<NextProjectNumber>('/patients/next_project_number', { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function useRegisterPatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof patientCreateBody>) =>
      api.post<PatientCreated>('/patients', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
  });
}

export function useUpdatePatient(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // A qualified patient changes only with a reason, asked for when the server says so (ADR 048).
    mutationFn: (body: z.output<typeof patientUpdateBody>) =>
      saveWithReason((reason) =>
        api.put<SuccessResponse>(`/patients/${id}`, reason ? { ...body, reason } : body),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
  });
}
