import { useQuery } from '@tanstack/react-query';
import type { CriteriaGroup, ExclusionCriterion, Medicine } from '@portal/shared';
import { api } from '../lib/api-client';
import { LOOKUP_CACHE } from './cache-policy';
import type { QueryToggle } from './cache-policy';
import { queryKeys } from './query-keys';

/** GET /api/inclusion_criteria_group: the groups with their subgroups. */
export function useCriteriaGroups({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.criteriaGroups(),
    queryFn: ({ signal }) =>
      api.request<{ data: CriteriaGroup[] }>('/inclusion_criteria_group', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...LOOKUP_CACHE,
  });
}

/** GET /api/exclusion_criteria */
export function useExclusionCriteria({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.exclusionCriteria(),
    queryFn: ({ signal }) =>
      api.request<{ data: ExclusionCriterion[] }>('/exclusion_criteria', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...LOOKUP_CACHE,
  });
}

/** Every medicine; forms offer the visible ones, a patient's record may name hidden ones. */
export function useMedicines({ enabled = true }: QueryToggle = {}) {
  return useQuery({
    queryKey: queryKeys.medicines(),
    queryFn: ({ signal }) => api.request<{ data: Medicine[] }>('/medicine', { signal }),
    select: (answer) => answer.data,
    enabled,
    ...LOOKUP_CACHE,
  });
}
