import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PatientBasic } from '@portal/shared';
import { api } from '../lib/api-client';
import { PICKER_CACHE } from './cache-policy';
import type { QueryToggle } from './cache-policy';
import { queryKeys } from './query-keys';

interface PatientOptionsInput extends QueryToggle {
  /** Part of a name or PESEL, diacritics optional; empty asks for the first patients by name. */
  search?: string;
  /** Patients to include whatever the search, e.g. the chosen ones, to name them. */
  ids?: readonly string[];
}

/**
 * GET /api/patients/options: at most PICKER_LIMIT reachable, not deleted patients matching
 * `search`, plus those named in `ids`. Pickers search as the user types instead of loading every
 * patient; the previous matches stay while the next ones load.
 */
export function usePatientOptions({ search = '', ids = [], enabled = true }: PatientOptionsInput) {
  const term = search.trim();
  return useQuery({
    queryKey: queryKeys.patientOptions(term, ids),
    queryFn: ({ signal }) =>
      api.request<{ data: PatientBasic[] }>('/patients/options', {
        query: { search: term || undefined, ids: ids.join(',') || undefined },
        signal,
      }),
    select: (answer) => answer.data,
    enabled,
    placeholderData: keepPreviousData,
    ...PICKER_CACHE,
  });
}
