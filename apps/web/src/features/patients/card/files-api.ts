import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FileView } from '@portal/shared';
import { deleteFile, uploadFile } from '../../../api/files';
import { queryKeys } from '../../../api/query-keys';
import { api } from '../../../lib/api-client';

const filesKey = queryKeys.patientFiles;

export function useFiles(patientId: number) {
  return useQuery({
    queryKey: filesKey(patientId),
    queryFn: ({ signal }) =>
      api.request<{ data: FileView[] }>('/files', {
        query: { ref_type: 'patient', ref_id: patientId },
        signal,
      }),
    select: (answer) => answer.data,
  });
}

export function useUploadFile(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, comment }: { file: File; comment: string | null }) =>
      uploadFile({ refType: 'patient', refId: patientId }, file, comment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKey(patientId) }),
  });
}

export function useDeleteFile(patientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKey(patientId) }),
  });
}
