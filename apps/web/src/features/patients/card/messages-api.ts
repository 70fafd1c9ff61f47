import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientMessage, PatientMessageSaved, SuccessResponse } from '@portal/shared';
import { queryKeys } from '../../../api/query-keys';
import { api } from '../../../lib/api-client';

const messagesKey = queryKeys.patientMessages;

export function useMessages(userId: number) {
  return useQuery({
    queryKey: messagesKey(userId),
    queryFn: ({ signal }) =>
      api.request<{ data: PatientMessage[] }>('/notifications', {
        query: { user_id: userId },
        signal,
      }),
    select: (answer) => answer.data,
  });
}

export function useSendMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) =>
      api.post<PatientMessageSaved>('/notifications', { content, receiver_user_id: userId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}

export function useUpdateMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content, version }: { id: number; content: string; version: number }) =>
      api.put<PatientMessageSaved>(`/notifications/${id}`, { content, version }),
    // Also after a 409: the message was read or changed meanwhile and the list should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}

export function useDeleteMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<SuccessResponse>(`/notifications/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}
