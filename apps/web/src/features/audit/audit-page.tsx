import { Alert, Anchor, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { REASON_CODES, formatDateTime, isAuditedEntity } from '@portal/shared';
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
import { auditParams, patientIdsFrom } from './audit-filters';
import { AuditExport } from './audit-export';
import { AuditVerify } from './audit-verify';
import type { AuditFilters } from './audit-filters';
import { authorOf, columnLabel, entryValue } from './audit-labels';
import type { Translate } from './audit-labels';

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
  const [searchParams] = useSearchParams();
  // Opened from a patient card: that patient's entries (the filter can be cleared as usual).
  const [filters, setFilters] = useState<AuditFilters>(() => ({
    ...NO_FILTERS,
    patientIds: patientIdsFrom(searchParams.get('patientIds')),
  }));
  const [dateChoice, setDateChoice] = useState<DateRangeChoice>(ALL_TIME);
  const list = useListQuery<AuditEntry>({
    entity: ENTITY.audit,
    path: '/audit_trial',
    // Far pages by key, the page in the URL (ADR 022, 052).
    keyset: true,
    params: auditParams(filters),
  });
  const doctors = useDoctorOptions({ enabled: reader });

  const forbidden = isApiError(list.query.error) && list.query.error.httpStatus === 403;
  // A monitor reads the trail patient by patient (ADR 051): without one the server asks for it.
  const needsPatient =
    isApiError(list.query.error) &&
    list.query.error.httpStatus === 422 &&
    Boolean(list.query.error.errors?.patientIds);
  const filtered =
    filters.doctorIds.length > 0 ||
    filters.patientIds.length > 0 ||
    Boolean(filters.reason) ||
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

  // The trail's keys are built from table and column names (every one checked by
  // audit-labels.test.ts), so they are plain strings here, not the typed literals.
  const translate: Translate = (key) => String(t(key as never));
  const exists = (key: string) => i18n.exists(key);
  const context = { t: translate, exists, language: i18n.language };
  const place = (entry: AuditEntry) =>
    isAuditedEntity(entry.entity_name)
      ? t(`audit.entities.${entry.entity_name}`)
      : entry.entity_name;
  const operation = (entry: AuditEntry) =>
    entry.operation === 'insert' || entry.operation === 'update' || entry.operation === 'delete'
      ? t(`audit.operations.${entry.operation}`)
      : entry.operation;
  // What happened is said next to the place: '-' alone cannot tell a removal from an empty value.
  // The record (a sample's code, a medicine) says which of the patient's records it was.
  const placeCell = (entry: AuditEntry) => (
    <>
      {place(entry)}
      {entry.record && (
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {entry.record}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {operation(entry)}
      </Text>
    </>
  );
  const column = (entry: AuditEntry) =>
    columnLabel(entry.entity_name, entry.column_name, translate, exists);
  const authorCell = (entry: AuditEntry) => {
    const author = authorOf(entry, translate);
    return (
      <>
        {author.name}
        {author.source && (
          <Text size="xs" c="dimmed">
            {author.source}
          </Text>
        )}
      </>
    );
  };
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
  const valueCell = (entry: AuditEntry, side: 'old' | 'new') => (
    <Text size="sm" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
      {entryValue(entry, side, context)}
    </Text>
  );

  // The reason for change written with the entry (ADR 048), in the reader's words.
  const reasonOf = (entry: AuditEntry) =>
    entry.reason
      ? [t(`changeReason.codes.${entry.reason.code}`), entry.reason.text].filter(Boolean).join(': ')
      : '-';

  const columns: Column<AuditEntry>[] = [
    {
      key: 'updated_at',
      header: t('audit.changedAt'),
      width: 150,
      cell: (e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.updated_at)}</span>,
    },
    { key: 'user', header: t('audit.changedBy'), cell: authorCell },
    { key: 'patient', header: t('audit.patient'), cell: patientCell },
    { key: 'place', header: t('audit.place'), cell: placeCell },
    { key: 'column', header: t('audit.column'), cell: column },
    { key: 'old', header: t('audit.oldValue'), cell: (e) => valueCell(e, 'old') },
    { key: 'new', header: t('audit.newValue'), cell: (e) => valueCell(e, 'new') },
    { key: 'reason', header: t('audit.reason'), cell: reasonOf },
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
        {entry.record ? ` · ${entry.record}` : ''}
      </Text>
      <Text size="sm">
        {t('audit.patient')}: {patientCell(entry)}
      </Text>
      <Text size="sm">
        {t('audit.changedBy')}: {authorOf(entry, translate).name}
        {authorOf(entry, translate).source ? ` (${authorOf(entry, translate).source})` : ''}
      </Text>
      <Text size="sm" mt={4} c="dimmed">
        {t('audit.oldValue')}:
      </Text>
      {valueCell(entry, 'old')}
      <Text size="sm" mt={4} c="dimmed">
        {t('audit.newValue')}:
      </Text>
      {valueCell(entry, 'new')}
      {entry.reason && (
        <Text size="sm" mt={4}>
          {t('audit.reason')}: {reasonOf(entry)}
        </Text>
      )}
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
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <AuditVerify />
          {can('audit.export') && <AuditExport filters={filters} />}
        </Group>
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
          <Select
            label={t('audit.reason')}
            data={[
              { value: 'any', label: t('audit.reasonAny') },
              ...REASON_CODES.map((code) => ({
                value: code,
                label: t(`changeReason.codes.${code}`),
              })),
            ]}
            value={filters.reason ?? null}
            onChange={(reason) => filter({ reason: reason ?? '' })}
            clearable
            w={{ base: '100%', xs: 240 }}
            comboboxProps={{ withinPortal: true }}
          />
          <DateRangeFilter
            value={dateChoice}
            onChange={(choice: DateRangeChoice, dates: DateRange) => {
              setDateChoice(choice);
              filter({ range: dates });
            }}
          />
        </ListFilterBar>

        {needsPatient ? (
          <Alert color="blue" variant="light">
            {t('audit.choosePatient')}
          </Alert>
        ) : (
          <DataTable
            list={list}
            columns={columns}
            renderCard={renderCard}
            label={t('audit.title')}
            searchable={false}
          />
        )}
      </Stack>
    </>
  );
}
