import type { receivedProbe, receiveResponse } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { isApiError } from '../../lib/api';
import type { CommonErrorKey } from '../../lib/api-errors';
import { ENTITY, queryKeys } from '../../api/query-keys';
import { api } from '../../lib/api-client';

export type ReceivedProbe = z.infer<typeof receivedProbe>;

/** What one scan came to, for the session's list and the banner. */
export type ScanOutcome =
  | { kind: 'received'; probe: ReceivedProbe }
  | { kind: 'already'; probe: ReceivedProbe }
  /** Unknown code, or another unit's sample: the server says the same (404) for both. */
  | { kind: 'unknown' }
  | { kind: 'error'; messageKey: CommonErrorKey };

function isReceivedBody(body: unknown): body is { probe: ReceivedProbe } {
  return !!body && typeof body === 'object' && 'probe' in body;
}

/** POST /api/probes/receive, turned into an outcome (a refusal is an answer here, not a failure). */
export async function receiveScan(code: string): Promise<ScanOutcome> {
  try {
    const answer = await api.post<z.infer<typeof receiveResponse>>('/probes/receive', { code });
    return { kind: 'received', probe: answer.probe };
  } catch (error) {
    if (!isApiError(error)) return { kind: 'error', messageKey: 'common.unexpectedError' };
    if (
      error.httpStatus === 409 &&
      error.status === 'already_received' &&
      isReceivedBody(error.body)
    )
      return { kind: 'already', probe: error.body.probe };
    if (error.httpStatus === 404 || error.httpStatus === 422) return { kind: 'unknown' };
    if (error.httpStatus === 0) return { kind: 'error', messageKey: 'common.networkError' };
    if (error.httpStatus === 403) return { kind: 'error', messageKey: 'common.forbidden' };
    return { kind: 'error', messageKey: 'common.unexpectedError' };
  }
}

export function useReceiveScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: receiveScan,
    onSuccess: (outcome) => {
      // The sample's status and arrival show on its page, the samples tab and the list.
      if (outcome.kind === 'received')
        void queryClient.invalidateQueries({ queryKey: queryKeys.all(ENTITY.probes) });
    },
  });
}
