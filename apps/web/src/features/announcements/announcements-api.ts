import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementList, AnnouncementSaved, SuccessResponse } from '@portal/shared';
import { queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

const key = queryKeys.announcements();

/** GET /api/notifications/global: every announcement, newest first, and their count. */
export function useAnnouncements() {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.request<AnnouncementList>('/notifications/global', { signal }),
  });
}

/**
 * The list as docs/product-rules.md "Records and their states" describes it: a sent announcement is
 * placed first and the count goes up by one, an edited one replaced by id, a deleted one removed by
 * id. The cache changes at once; a refetch afterwards brings the read counts up to date.
 */
function useListUpdate() {
  const queryClient = useQueryClient();
  return {
    update: (change: (list: AnnouncementList) => AnnouncementList) =>
      queryClient.setQueryData<AnnouncementList>(key, (list) => list && change(list)),
    refresh: () => queryClient.invalidateQueries({ queryKey: key }),
  };
}

export function useSendAnnouncement() {
  const { update, refresh } = useListUpdate();
  return useMutation({
    mutationFn: (content: string) =>
      api.post<AnnouncementSaved>('/notifications/global', { content }),
    onSuccess: ({ data }) =>
      update((list) => ({ data: [data, ...list.data], total_count: list.total_count + 1 })),
    onSettled: refresh,
  });
}

export function useUpdateAnnouncement() {
  const { update, refresh } = useListUpdate();
  return useMutation({
    mutationFn: ({ id, content, version }: { id: number; content: string; version: number }) =>
      api.put<AnnouncementSaved>(`/notifications/global/${id}`, { content, version }),
    onSuccess: ({ data }) =>
      update((list) => ({ ...list, data: list.data.map((a) => (a.id === data.id ? data : a)) })),
    // Also after a 409: someone else changed or deleted it, and the list should show that.
    onSettled: refresh,
  });
}

export function useDeleteAnnouncement() {
  const { update, refresh } = useListUpdate();
  return useMutation({
    mutationFn: (id: number) => api.delete<SuccessResponse>(`/notifications/global/${id}`),
    onSuccess: (_, id) =>
      update((list) => ({
        data: list.data.filter((a) => a.id !== id),
        total_count: list.total_count - 1,
      })),
    onSettled: refresh,
  });
}
