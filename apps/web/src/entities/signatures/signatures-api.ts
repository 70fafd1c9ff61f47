import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeReason, Signature, SignatureMeaning, SignedRecordType } from '@portal/shared';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

/** The detail a signature or a lock changes: the visit card's or the sample page's query. */
const detailKey = (type: SignedRecordType, id: number) =>
  type === 'visit' ? queryKeys.visit(id) : queryKeys.probe(id);

function useRefreshRecord(type: SignedRecordType, id: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: detailKey(type, id) });
    // The patient's trail shows signing and locking too.
    void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.audit) });
  };
}

/** POST /api/signatures: the password again, every time (ADR 050). */
export function useSignRecord(type: SignedRecordType, id: number) {
  const refresh = useRefreshRecord(type, id);
  return useMutation({
    mutationFn: (body: { meaning: SignatureMeaning; password: string }) =>
      api.post<{ signature: Signature }>('/signatures', {
        record_type: type,
        record_id: id,
        ...body,
      }),
    onSuccess: refresh,
  });
}

/** POST /api/records/lock and /unlock with the reason (ADR 048). */
export function useRecordLock(type: SignedRecordType, id: number) {
  const refresh = useRefreshRecord(type, id);
  return useMutation({
    mutationFn: ({ action, reason }: { action: 'lock' | 'unlock'; reason: ChangeReason }) =>
      api.post(`/records/${action}`, { record_type: type, record_id: id, reason }),
    onSuccess: refresh,
  });
}
