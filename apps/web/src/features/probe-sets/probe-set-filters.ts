import type { ProbeSetStatus } from '@portal/shared';
import type { DateRange } from '../../components/date-range';

/** The kit-order list's filters as the screen holds them (the picker's values are strings). */
export interface ProbeSetListFilters {
  patientIds: string[];
  range: DateRange;
  status: ProbeSetStatus | null;
}

export const NO_PROBE_SET_FILTERS: ProbeSetListFilters = {
  patientIds: [],
  range: {},
  status: null,
};

/** GET /api/probe-sets filters: patients comma-separated, the created days, the status. */
export function probeSetListParams(filters: ProbeSetListFilters) {
  return {
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
    status: filters.status ?? undefined,
  };
}
