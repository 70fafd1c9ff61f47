import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Note, NoteSaved, SuccessResponse } from '@portal/shared';
import { queryKeys } from '../../../api/query-keys';
import { api } from '../../../lib/api-client';

const notesKey = queryKeys.patientNotes;

export function useNotes(patientId: number) {
  return useQuery({
    queryKey: notesKey(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: Note[] }>('/patients/notes', { query: { ref_id: patientId }, signal }),
    select: (answer) => answer.data,
  });
}

export function useAddNote(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) =>
      api.post<NoteSaved>('/patients/notes', {
        content,
        ref_type: 'patient',
        ref_id: patientId,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey(patientId) }),
  });
}

export function useDeleteNote(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<SuccessResponse>(`/patients/notes/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey(patientId) }),
  });
}
