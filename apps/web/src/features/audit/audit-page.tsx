import { Alert, Anchor, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@portal/shared';
import type { AuditEntry } from '@portal/shared';
import { useDoctorOptions } from '../../api/doctors';
import { ENTITY } from '../../api/query-keys';
import { ComboboxMessage } from '../../components/combobox-message';
import { DateRangeFilter } from '../../components/date-range-filter';
import { ALL_TIME } from '../../components/date-range';
import type { DateRange, DateRangeChoice } from '../../components/date-range';
import { ListFilterBar } from '../../components/list-filter-bar';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { PatientPicker } from '../../components/patient-picker';
import { useListQuery } from '../../components/use-list-query';
import { isApiError } from '../../lib/api';
import { useCan } from '../../lib/permissions';
import { useReferenceNames } from './audit-api';
import { auditParams } from './audit-filters';
import type { AuditFilters } from './audit-filters';
import { auditValue, isAuditedEntity, isNamedColumn, referenceName } from './audit-labels';

const NO_FILTERS: AuditFilters = { doctorIds: [], patientIds: [], range: {} };

/**
 * /audit_trial (administrators): who changed which patient data, when, from what to what.
 * Doctors have no menu entry; if one comes here anyway, the server's refusal is shown.
 */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  // Names and pickers only for those the server lets read the trail; others see its refusal.
  const reader = can('audit.read');
  const names = useReferenceNames(reader);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [dateChoice, setDateChoice] = useState<DateRangeChoice>(ALL_TIME);
  const list = useListQuery<AuditEntry>({
    entity: ENTITY.audit,
    path: '/audit_trial',
    params: auditParams(filters),
  });
  const doctors = useDoctorOptions({ enabled: reader });

  const forbidden = isApiError(list.query.error) && list.query.error.httpStatus === 403;
  const filtered =
    filters.doctorIds.length > 0 ||
    filters.patientIds.length > 0 ||
    dateChoice.option !== ALL_TIME.option;

  function filter(next: Partial<AuditFilters>) {
    setFilters((previous) => ({ ...previous, ...next }));
    list.setPage(1);
  }

  function clearFilters() {
    setFilters(NO_FILTERS);
    setDateChoice(ALL_TIME);
    list.setPage(1);
  }

  const words = { yes: t('audit.valueTrue'), no: t('audit.valueFalse') };
  const place = (entry: AuditEntry) =>
    isAuditedEntity(entry.entity_name)
      ? t(`audit.entities.${entry.entity_name}`)
      : entry.entity_name;
  const operation = (entry: AuditEntry) =>
    entry.operation === 'insert' || entry.operation === 'update' || entry.operation === 'delete'
      ? t(`audit.operations.${entry.operation}`)
      : entry.operation;
  // What happened is said next to the place: '-' alone cannot tell a removal from an empty value.
  const placeCell = (entry: AuditEntry) => (
    <>
      {place(entry)}
      <Text size="xs" c="dimmed">
        {operation(entry)}
      </Text>
    </>
  );
  const column = (entry: AuditEntry) =>
    isNamedColumn(entry.column_name) ? t(`audit.columns.${entry.column_name}`) : entry.column_name;
  const patientCell = (entry: AuditEntry) => {
    if (!entry.patient) return '-';
    const name = `${entry.patient.surname} ${entry.patient.firstname}`.trim();
    return (
      <Anchor
        component={Link}
        fz="sm"
        to={`/patients/card/${entry.patient.id}`}
        aria-label={t('audit.openCard', { name })}
      >
        {name}
      </Anchor>
    );
  };
  const valueCell = (value: string | null, entry: AuditEntry) => (
    <Text size="sm" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
      {referenceName(entry.column_name, value, names) ?? auditValue(value, words, i18n.language)}
    </Text>
  );

  const columns: Column<AuditEntry>[] = [
    {
      key: 'updated_at',
      header: t('audit.changedAt'),
      width: 150,
      cell: (e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.updated_at)}</span>,
    },
    { key: 'user', header: t('audit.changedBy'), cell: (e) => e.user.login ?? '-' },
    { key: 'patient', header: t('audit.patient'), cell: patientCell },
    { key: 'place', header: t('audit.place'), cell: placeCell },
    { key: 'column', header: t('audit.column'), cell: column },
    { key: 'old', header: t('audit.oldValue'), cell: (e) => valueCell(e.old_value, e) },
    { key: 'new', header: t('audit.newValue'), cell: (e) => valueCell(e.new_value, e) },
  ];

  if (forbidden) {
    return (
      <>
        <PageHeader title={t('audit.title')} />
        <Alert color="yellow" role="alert">
          {t('audit.forbidden')}
        </Alert>
      </>
    );
  }

  const renderCard = (entry: AuditEntry) => (
    <>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {place(entry)} · {column(entry)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.updated_at)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" mb={4}>
        {operation(entry)}
      </Text>
      <Text size="sm">
        {t('audit.patient')}: {patientCell(entry)}
      </Text>
      <Text size="sm">
        {t('audit.changedBy')}: {entry.user.login ?? '-'}
      </Text>
      <Text size="sm" mt={4} c="dimmed">
        {t('audit.oldValue')}:
      </Text>
      {valueCell(entry.old_value, entry)}
      <Text size="sm" mt={4} c="dimmed">
        {t('audit.newValue')}:
      </Text>
      {valueCell(entry.new_value, entry)}
    </>
  );

  const personOption = (p: { id: number; firstname: string; surname: string }) => ({
    value: String(p.id),
    label: `${p.surname} ${p.firstname}`,
  });

  return (
    <>
      <PageHeader title={t('audit.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('audit.filters')}
          clearLabel={t('audit.clearFilters')}
          filtered={filtered}
          onClear={clearFilters}
        >
          <MultiSelect
            label={t('audit.doctors')}
            placeholder={filters.doctorIds.length ? undefined : t('audit.doctorsPlaceholder')}
            data={(doctors.data ?? []).map(personOption)}
            value={filters.doctorIds}
            onChange={(doctorIds) => filter({ doctorIds })}
            searchable
            clearable
            nothingFoundMessage={<ComboboxMessage>{t('audit.nothingFound')}</ComboboxMessage>}
            w={{ base: '100%', xs: 280 }}
            comboboxProps={{ withinPortal: true }}
          />
          <PatientPicker
            label={t('audit.patients')}
            placeholder={filters.patientIds.length ? undefined : t('audit.patientsPlaceholder')}
            value={filters.patientIds}
            onChange={(patientIds) => filter({ patientIds })}
            enabled={reader}
            clearable
            w={{ base: '100%', xs: 320 }}
          />
          <DateRangeFilter
            value={dateChoice}
            onChange={(choice: DateRangeChoice, dates: DateRange) => {
              setDateChoice(choice);
              filter({ range: dates });
            }}
          />
        </ListFilterBar>

        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('audit.title')}
          searchable={false}
        />
      </Stack>
    </>
  );
}
