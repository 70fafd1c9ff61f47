import type { ProbeListItem } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { useListQuery } from '../../components/use-list-query';
import { probeListParams } from './probe-list-filters';
import type { ProbeListFilters } from './probe-list-filters';

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
