import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginDetails, SuccessResponse } from '@portal/shared';
import { ENTITY, queryKeys } from '../../../api/query-keys';
import { api } from '../../../lib/api-client';

export function useDeletePatient(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<SuccessResponse>(`/patients/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.patients) }),
  });
}

/** Sets a new generated password; the old one stops working. Returned once, to be printed. */
export function useResetPatientPassword(id: number) {
  return useMutation({
    mutationFn: () => api.get<LoginDetails>(`/patients/print_password/${id}`),
  });
}
