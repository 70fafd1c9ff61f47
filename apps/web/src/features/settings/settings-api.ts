import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LabLastError, SettingValues, WritableSettingName } from '@portal/shared';
import { queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/** A settings key as stored: its value and the version a save must carry (0: never saved). */
export interface StoredSetting<N extends keyof SettingValues> {
  value: SettingValues[N];
  version: number;
  /** The laboratory's last error, structured (synevo_last_error_message only, ADR 032). */
  error?: LabLastError | null;
}

function fetchSetting<N extends keyof SettingValues>(name: N, signal?: AbortSignal) {
  return api
    .request<{ data: StoredSetting<N> }>(`/settings/${name}`, signal ? { signal } : {})
    .then((answer) => answer.data);
}

export function useSetting<N extends keyof SettingValues>(name: N) {
  return useQuery({
    queryKey: queryKeys.setting(name),
    queryFn: ({ signal }) => fetchSetting(name, signal),
  });
}

/** POST /api/settings/{name} with the version the form read; the answer is the stored value. */
export function useSaveSetting<N extends WritableSettingName>(name: N) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ value, version }: { value: SettingValues[N]; version: number }) =>
      api
        .post<{ data: StoredSetting<N> }>(`/settings/${name}`, { value, version })
        .then((answer) => answer.data),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.setting(name), saved),
  });
}

/** After a 409 conflict: the setting as stored now, also put into the cache. */
export function useReloadSetting<N extends keyof SettingValues>(name: N) {
  const queryClient = useQueryClient();
  return async (): Promise<StoredSetting<N>> => {
    const fresh = await fetchSetting(name);
    queryClient.setQueryData(queryKeys.setting(name), fresh);
    return fresh;
  };
}
