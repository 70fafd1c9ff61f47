import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Unit, UnitBody } from '@portal/shared';
import { api } from '../../lib/api-client';

export const UNITS = 'units';

/** POST /api/units or PUT /api/units/{id}; every units list refetches afterwards. */
export function useSaveUnit(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UnitBody) =>
      id === null
        ? api.post<{ status: 'success'; data: Unit }>('/units', body)
        : api.put<{ status: 'success'; data: Unit }>(`/units/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [UNITS] }),
  });
}
