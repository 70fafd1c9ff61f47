import { useQuery } from '@tanstack/react-query';
import type { Doctor } from '@portal/shared';
import { api } from '../lib/api-client';
import { PICKER_CACHE } from './cache-policy';
import type { QueryToggle } from './cache-policy';
import { queryKeys } from './query-keys';

/**
 * GET /api/doctors/all: the doctors that are not deleted, optionally of one unit; a doctor user
 * always gets the own unit's.
 */
export function useDoctorOptions({
  unitId = null,
  enabled = true,
}: QueryToggle & { unitId?: number | null } = {}) {
  return useQuery({
    queryKey: queryKeys.doctorOptions(unitId),
    queryFn: ({ signal }) =>
      api.request<{ data: Doctor[] }>('/doctors/all', {
        signal,
        query: { unit_id: unitId ?? undefined },
      }),
    select: (answer) => answer.data,
    enabled,
    ...PICKER_CACHE,
  });
}
