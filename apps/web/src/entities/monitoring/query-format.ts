import { useTranslation } from 'react-i18next';
import { QUERY_FIELDS } from '@portal/shared';
import type { DataQuery, MonitoredRecordType } from '@portal/shared';

/** The screen of a query's record: the visit card, the sample's page or the patient card. */
export function recordPath(query: Pick<DataQuery, 'record_type' | 'record_id' | 'patient_id'>) {
  switch (query.record_type) {
    case 'visit':
      return `/patients/${query.patient_id}/visits/${query.record_id}`;
    case 'probe':
      return `/probes/${query.record_id}`;
    case 'patient':
      return `/patients/card/${query.patient_id}`;
  }
}

/**
 * Where the site corrects what a query asks about, with `?query=<id>`: the reason dialog then
 * offers "Odpowiedź na zapytanie monitora" first (components/reason-dialog.tsx). A patient's
 * data is corrected in the edit wizard; a visit or a sample on its own page.
 */
export function correctionPath(
  query: Pick<DataQuery, 'id' | 'record_type' | 'record_id' | 'patient_id'>,
) {
  const base =
    query.record_type === 'patient' ? `/patients/${query.patient_id}/edit` : recordPath(query);
  return `${base}?query=${query.id}`;
}

type FieldKey = {
  [T in MonitoredRecordType]: `monitoring.fields.${T}.${(typeof QUERY_FIELDS)[T][number]}`;
}[MonitoredRecordType];

function isQueryField(type: MonitoredRecordType, field: string): boolean {
  return (QUERY_FIELDS[type] as readonly string[]).includes(field);
}

/**
 * A query's field by its readable name ("QT", "Masa ciała"), "Cały rekord" without one; a name
 * the portal does not know (none today) is shown as it is.
 */
export function useFieldLabel() {
  const { t } = useTranslation();
  return (type: MonitoredRecordType, field: string | null): string => {
    if (field === null) return t('monitoring.wholeRecord');
    // The key exists for every field of QUERY_FIELDS (the i18n test compares both languages).
    return isQueryField(type, field) ? t(`monitoring.fields.${type}.${field}` as FieldKey) : field;
  };
}

/** The person's name as the thread shows it ("Anna Kowalska"). */
export function authorName(person: { firstname: string | null; surname: string | null }) {
  return [person.firstname, person.surname].filter(Boolean).join(' ');
}
