import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginDetails, Monitor, MonitorSaved, monitorBody } from '@portal/shared';
import type { z } from 'zod';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

// Monitor accounts, called as the doctors' screen calls its API (ADR 051).

export function useMonitor(id: number | null) {
  return useQuery({
    queryKey: queryKeys.monitor(id),
    queryFn: ({ signal }) => api.request<Monitor>(`/monitors/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useSaveMonitor(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, version }: { body: z.output<typeof monitorBody>; version?: number }) =>
      id === null
        ? api.post<MonitorSaved>('/monitors', body)
        : api.put<MonitorSaved>(`/monitors/${id}`, { ...body, version }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.monitors) }),
  });
}

/** After a 409 conflict: the monitor as stored now (its version); the list and dialog refetch. */
export function useReloadMonitor(id: number | null) {
  const queryClient = useQueryClient();
  return async (): Promise<Monitor | null> => {
    if (id === null) return null;
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.monitors) });
    return api.request<Monitor>(`/monitors/${id}`);
  };
}

/** Sets a new generated password and returns it once, to be printed. */
export function usePrintMonitorLogin() {
  return useMutation({
    mutationFn: (id: number) => api.get<LoginDetails>(`/monitors/print_login_detail/${id}`),
  });
}
