import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Visit, VisitNotesBody, VisitResultsBody, VisitSaved } from '@portal/shared';
import { deleteFile, uploadFile } from '../../api/files';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';
import { saveWithReason } from '../../components/reason-dialog';

const visitKey = queryKeys.visit;

/** GET /api/visits/{id}: the card's visit, with its ECG, flags, files and samples. */
export function useVisit(id: number | null) {
  return useQuery({
    queryKey: visitKey(id),
    queryFn: ({ signal }) => api.request<Visit>(`/visits/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** PUT /api/visits/{id}/results: the server computes QTcB/QTcF and answers the saved visit. */
export function useRecordVisit(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // A recorded visit changes only with a reason, asked for when the server says so (ADR 048).
    mutationFn: (body: VisitResultsBody) =>
      saveWithReason((reason) =>
        api.put<VisitSaved>(`/visits/${id}/results`, reason ? { ...body, reason } : body),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(visitKey(id), saved.visit);
      // The patient's visit lists show the comment and the done state too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.visits) });
    },
  });
}

/** PUT /api/visits/{id}/notes: the notes only (ADR 038); the server sanitises and answers the visit. */
export function useSaveVisitNotes(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VisitNotesBody) => api.put<VisitSaved>(`/visits/${id}/notes`, body),
    onSuccess: (saved) => queryClient.setQueryData(visitKey(id), saved.visit),
  });
}

/** POST /api/files with ref_type visit: one ECG file, checked by content on the server. */
export function useUploadEcgFile(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadFile({ refType: 'visit', refId: visitId }, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: visitKey(visitId) }),
  });
}

export function useDeleteEcgFile(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: visitKey(visitId) }),
  });
}
