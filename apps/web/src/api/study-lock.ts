import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeReason, StudyLockState } from '@portal/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

/**
 * GET /api/study/lock (ADR 048): whether the study is locked, for every signed-in staff user. Read
 * again every minute, so that a lock set by someone else reaches an open screen's banner.
 */
export function useStudyLock(enabled = true) {
  return useQuery({
    queryKey: queryKeys.studyLock(),
    queryFn: ({ signal }) => api.request<StudyLockState>('/study/lock', { signal }),
    enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

/** POST /api/study/lock or /unlock with the reason; every screen's banner follows. */
export function useChangeStudyLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason }: { action: 'lock' | 'unlock'; reason: ChangeReason }) =>
      api.post<StudyLockState>(`/study/${action}`, { reason }),
    onSuccess: (state) => {
      queryClient.setQueryData(queryKeys.studyLock(), {
        locked: state.locked,
        locked_at: state.locked_at,
        by: state.by,
      });
    },
  });
}
