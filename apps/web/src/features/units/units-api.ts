import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UnitBody, UnitSaved } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/** POST /api/units or PUT /api/units/{id}; every units list refetches afterwards. */
export function useSaveUnit(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UnitBody) =>
      id === null ? api.post<UnitSaved>('/units', body) : api.put<UnitSaved>(`/units/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ENTITY.units] }),
  });
}
