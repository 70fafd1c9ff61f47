import type { DateRange } from '../../components/date-range';

/** The audit trail's filters as the screen holds them (the pickers' values are strings). */
export interface AuditFilters {
  doctorIds: string[];
  patientIds: string[];
  range: DateRange;
}

/** GET /api/audit_trial filters: the ids travel comma-separated, the range as two days. */
export function auditParams(filters: AuditFilters) {
  return {
    doctorIds: filters.doctorIds.join(',') || undefined,
    patientIds: filters.patientIds.join(',') || undefined,
    from_date: filters.range.from_date,
    to_date: filters.range.to_date,
  };
}
