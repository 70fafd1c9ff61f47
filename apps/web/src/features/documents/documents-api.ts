import { useQuery } from '@tanstack/react-query';
import { fetchPanelDocuments } from '../../api/panel-documents';
import { queryKeys } from '../../api/query-keys';

/** The doctor panel's documents, to read and download. */
export function useDoctorDocuments() {
  return useQuery({
    queryKey: queryKeys.panelDocuments('doctor'),
    queryFn: ({ signal }) => fetchPanelDocuments('doctor', signal),
  });
}
