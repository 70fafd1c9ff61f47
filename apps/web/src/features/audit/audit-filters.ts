import type { DateRange } from '../../components/date-range';

/** The audit trail's filters as the screen holds them (the pickers' values are strings). */
export interface AuditFilters {
  doctorIds: string[];
  patientIds: string[];
  range: DateRange;
  /** A reason code, 'any', or '' for every entry (ADR 048). */
  reason?: string;
}

/** GET /api/audit_trial filters: the ids travel comma-separated, the range as two days. */
export function auditParams(filters: AuditFilters) {
  return {
    doctorIds: filters.doctorIds.join(',') || undefined,
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
    reason: filters.reason || undefined,
  };
}

/** `?patientIds=12` (the patient card's link to its history): the ids a page opens filtered by. */
export function patientIdsFrom(value: string | null): string[] {
  return (value ?? '').split(',').filter((id) => /^[1-9]\d{0,9}$/.test(id));
}
