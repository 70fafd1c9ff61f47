import type { DateRange } from '../../components/date-range';

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
