import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Admin, AdminBody, AdminSaved, LoginDetails } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';
import { isApiError } from '../../lib/api';

export function useAdmin(id: number | null) {
  return useQuery({
    queryKey: queryKeys.admin(id),
    queryFn: ({ signal }) => api.request<Admin>(`/admins/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useSaveAdmin(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, version }: { body: AdminBody; version?: number }) =>
      id === null
        ? api.post<AdminSaved>('/admins', body)
        : api.put<AdminSaved>(`/admins/${id}`, { ...body, version }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.admins) }),
  });
}

/** After a 409 conflict: the administrator as stored now (its version); the list refetches. */
export function useReloadAdmin(id: number | null) {
  const queryClient = useQueryClient();
  return async (): Promise<Admin | null> => {
    if (id === null) return null;
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.admins) });
    return api.request<Admin>(`/admins/${id}`);
  };
}

/** Sets a new generated password and returns it once, to be printed. */
export function usePrintAdminLogin() {
  return useMutation({
    mutationFn: (id: number) => api.get<LoginDetails>(`/admins/print_login_detail/${id}`),
  });
}

/** The server refuses to delete the own account and the last administrator (409). */
export function deleteRefusalKey(error: unknown) {
  if (!isApiError(error) || error.httpStatus !== 409) return undefined;
  if (error.status === 'cannot_delete_self') return 'admins.cannotDeleteSelf' as const;
  if (error.status === 'last_admin') return 'admins.lastAdmin' as const;
  return undefined;
}
