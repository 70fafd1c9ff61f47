import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Unit, UnitBody, UnitSaved } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/**
 * POST /api/units, or PUT /api/units/{id} with the version the form loaded; every units list
 * refetches afterwards.
 */
export function useSaveUnit(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, version }: { body: UnitBody; version?: number }) =>
      id === null
        ? api.post<UnitSaved>('/units', body)
        : api.put<UnitSaved>(`/units/${id}`, { ...body, version }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.units) }),
  });
}

/** After a 409 conflict: the unit as stored now (its version), and the lists behind refetch. */
export function useReloadUnit(id: number | null) {
  const queryClient = useQueryClient();
  return async (): Promise<Unit | null> => {
    if (id === null) return null;
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.units) });
    return api.request<Unit>(`/units/${id}`);
  };
}
