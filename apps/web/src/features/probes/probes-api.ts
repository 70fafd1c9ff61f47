import type { ProbeListItem } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import type { DateRange } from '../../components/date-range';
import { useListQuery } from '../../components/use-list-query';

/** The samples list's filters as the screen holds them (the picker's values are strings). */
export interface ProbeListFilters {
  patientIds: string[];
  range: DateRange;
}

/** GET /api/probes filters: the patients comma-separated, the created days as two dates. */
export function probeListParams(filters: ProbeListFilters) {
  return {
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
  };
}

/**
 * GET /api/probes, paged, sorted and searched like every list; newest first. Under the probes
 * entity, so that any write to samples (which invalidates it) refreshes the list.
 */
export function useProbeList(filters: ProbeListFilters) {
  return useListQuery<ProbeListItem>({
    entity: ENTITY.probes,
    path: '/probes',
    orderBy: 'created_at',
    direction: 'desc',
    params: probeListParams(filters),
  });
}
