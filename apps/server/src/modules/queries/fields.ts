import type { MonitoredRecordType } from '@portal/shared';

/**
 * The fields a query may name, per record: the entered data a monitor checks against the source
 * (ADR 051). Identity and contacts are not among them: a monitor does not see them.
 */
export const QUERY_FIELDS: Record<MonitoredRecordType, ReadonlySet<string>> = {
  patient: new Set([
    'firstname',
    'surname',
    'sex',
    'birth_date',
    'weight',
    'height',
    'project_number',
    'is_above_18',
    'is_classified',
    'is_finished',
    'exclusion_criteria_id',
    'group_id',
    'subgroup_id',
    'dose',
    'interval',
    'medicines',
    'additional_medicines',
  ]),
  visit: new Set([
    'date',
    'started_at',
    'ended_at',
    'is_done',
    'comment',
    'qt',
    'rr',
    'pq',
    'qrs',
    'qtcb',
    'qtcfra',
    'window_reason',
    'notes',
  ]),
  probe: new Set([
    'date_of_sample',
    'type_of_test',
    'type_of_material',
    'adverse_events',
    'alt',
    'ast',
    'creatine',
    'bilirubine',
    'concentration_hours',
    'concentration_date_of_analysis',
    'medicines',
  ]),
};
