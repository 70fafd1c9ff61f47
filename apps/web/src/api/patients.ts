import { useQuery } from '@tanstack/react-query';
import type { PatientBasic } from '@portal/shared';
import { api } from '../lib/api-client';
import { PICKER_CACHE } from './cache-policy';
import type { QueryToggle } from './cache-policy';
import { queryKeys } from './query-keys';

/** GET /api/patients/all: the reachable patients that are not deleted, for pickers. */
export function usePatientOptions({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.patientOptions(),
    queryFn: ({ signal }) => api.request<{ data: PatientBasic[] }>('/patients/all', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...PICKER_CACHE,
  });
}
