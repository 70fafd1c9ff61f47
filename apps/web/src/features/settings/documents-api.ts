import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentPanel } from '@portal/shared';
import { deleteFile } from '../../api/files';
import { fetchPanelDocuments, uploadPanelDocument } from '../../api/panel-documents';
import { queryKeys } from '../../api/query-keys';

export function usePanelDocuments(panel: DocumentPanel) {
  return useQuery({
    queryKey: queryKeys.panelDocuments(panel),
    queryFn: ({ signal }) => fetchPanelDocuments(panel, signal),
  });
}

export function useUploadPanelDocument(panel: DocumentPanel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadPanelDocument(panel, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panelDocuments(panel) }),
  });
}

export function useDeletePanelDocument(panel: DocumentPanel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panelDocuments(panel) }),
  });
}
