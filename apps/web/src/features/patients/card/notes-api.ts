import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Note } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { PATIENTS } from './patient-api';

const notesKey = (patientId: number) => [PATIENTS, patientId, 'notes'] as const;

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
      api.post<{ status: 'success'; note: Note }>('/patients/notes', {
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
    mutationFn: (id: number) => api.delete<{ status: 'success' }>(`/patients/notes/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey(patientId) }),
  });
}
