import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Doctor, LoginDetails } from '@portal/shared';
import { api } from '../../lib/api-client';

export const DOCTORS = 'doctors';

export interface DoctorPayload {
  firstname: string;
  surname: string;
  email: string;
  phone_number: string;
  unit_id: number;
}

interface UnitOption {
  id: number;
  name: string;
}

export function useDoctor(id: number | null) {
  return useQuery({
    queryKey: [DOCTORS, 'detail', id],
    queryFn: ({ signal }) => api.request<Doctor>(`/doctors/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Units to choose from (GET /api/units/all: units that are not deleted). */
export function useUnitOptions() {
  return useQuery({
    queryKey: ['units', 'all'],
    queryFn: ({ signal }) => api.request<{ data: UnitOption[] }>('/units/all', { signal }),
    select: (answer) => answer.data,
  });
}

export function useSaveDoctor(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DoctorPayload) =>
      id === null
        ? api.post<{ status: 'success'; data: Doctor }>('/doctors', body)
        : api.put<{ status: 'success'; data: Doctor }>(`/doctors/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [DOCTORS] }),
  });
}

/** Sets a new generated password and returns it once, to be printed. */
export function usePrintDoctorLogin() {
  return useMutation({
    mutationFn: (id: number) => api.get<LoginDetails>(`/doctors/print_login_detail/${id}`),
  });
}
