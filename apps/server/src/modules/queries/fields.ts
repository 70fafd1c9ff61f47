import { QUERY_FIELDS as FIELDS } from '@portal/shared';
import type { MonitoredRecordType } from '@portal/shared';

/** The fields a query may name, per record (the list lives in packages/shared; ADR 051). */
export const QUERY_FIELDS: Record<MonitoredRecordType, ReadonlySet<string>> = {
  patient: new Set(FIELDS.patient),
  visit: new Set(FIELDS.visit),
  probe: new Set(FIELDS.probe),
};
