import type { DateRange } from '../../components/date-range';

/** The samples list's filters as the screen holds them (the picker's values are strings). */
export interface ProbeListFilters {
  patientIds: string[];
  range: DateRange;
  /** The dashboard's filters (ADR 060), kept in the URL: status, analyte out of norm, unit. */
  status?: string | null;
  outOfNorm?: string | null;
  unitId?: string | null;
}

const STATUS = /^(collected|sent|received)$/;
const ANALYTE = /^(alt|ast|creatine|bilirubine|medicine_\d+)$/;

/** The dashboard's filters from the URL (`?status&out_of_norm&unit_id`); anything else ignored. */
export function probeFiltersFromUrl(params: URLSearchParams) {
  const value = (name: string, pattern: RegExp) => {
    const found = params.get(name);
    return found && pattern.test(found) ? found : null;
  };
  return {
    status: value('status', STATUS),
    outOfNorm: value('out_of_norm', ANALYTE),
    unitId: value('unit_id', /^\d+$/),
  };
}

/** GET /api/probes filters: the patients comma-separated, the created days as two dates. */
export function probeListParams(filters: ProbeListFilters) {
  return {
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
    status: filters.status ?? undefined,
    out_of_norm: filters.outOfNorm ?? undefined,
    unit_id: filters.unitId ?? undefined,
  };
}
