import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Doctor, DoctorSaved, LoginDetails, doctorBody } from '@portal/shared';
import type { z } from 'zod';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

export function useDoctor(id: number | null) {
  return useQuery({
    queryKey: queryKeys.doctor(id),
    queryFn: ({ signal }) => api.request<Doctor>(`/doctors/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useSaveDoctor(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, version }: { body: z.output<typeof doctorBody>; version?: number }) =>
      id === null
        ? api.post<DoctorSaved>('/doctors', body)
        : api.put<DoctorSaved>(`/doctors/${id}`, { ...body, version }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.doctors) }),
  });
}

/** After a 409 conflict: the doctor as stored now (its version); the list and dialog refetch. */
export function useReloadDoctor(id: number | null) {
  const queryClient = useQueryClient();
  return async (): Promise<Doctor | null> => {
    if (id === null) return null;
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.doctors) });
    return api.request<Doctor>(`/doctors/${id}`);
  };
}

/** Sets a new generated password and returns it once, to be printed. */
export function usePrintDoctorLogin() {
  return useMutation({
    mutationFn: (id: number) => api.get<LoginDetails>(`/doctors/print_login_detail/${id}`),
  });
}
