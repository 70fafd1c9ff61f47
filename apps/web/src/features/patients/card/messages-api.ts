import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientMessage } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { PATIENTS } from './patient-api';

/** Messages address the patient's user account, not the patient record. */
const messagesKey = (userId: number) => [PATIENTS, 'messages', userId] as const;

type Saved = { status: 'success'; data: PatientMessage };

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
      api.post<Saved>('/notifications', { content, receiver_user_id: userId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}

export function useUpdateMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content }: { id: number; content: string }) =>
      api.put<Saved>(`/notifications/${id}`, { content }),
    // Also after a 409: the message was read meanwhile and the list should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}

export function useDeleteMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ status: 'success' }>(`/notifications/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKey(userId) }),
  });
}
