import { Alert, Anchor, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '@portal/shared';
import type { AccessLogEntry } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DateRangeFilter } from '../../components/date-range-filter';
import { ALL_TIME } from '../../components/date-range';
import type { DateRange, DateRangeChoice } from '../../components/date-range';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { ListFilterBar } from '../../components/list-filter-bar';
import { PageHeader } from '../../components/page-header';
import { useListQuery } from '../../components/use-list-query';
import { isApiError } from '../../lib/api';

interface Filters {
  patientId: number | null;
  userId: number | null;
  range: DateRange;
}

const NO_FILTERS: Filters = { patientId: null, userId: null, range: {} };

function idFrom(value: string | null): number | null {
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * /access_log, "Dziennik dostępu" (ADR 052): who saw which patients' data, for administrators
 * and the data protection officer. Filtered by patient, user and date range; `?patientIds=` opens
 * one patient's entries (the card's "who saw this patient's data").
 */
export function AccessLogPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => ({
    ...NO_FILTERS,
    patientId: idFrom(searchParams.get('patientIds')),
  }));
  const [dateChoice, setDateChoice] = useState<DateRangeChoice>(ALL_TIME);
  const list = useListQuery<AccessLogEntry>({
    entity: ENTITY.accessLog,
    path: '/access_log',
    // Far pages by key, the page in the URL (ADR 022, 052).
    keyset: true,
    params: {
      patientIds: filters.patientId ?? undefined,
      userIds: filters.userId ?? undefined,
      from: filters.range.from_date,
      to: filters.range.to_date,
    },
  });
  const forbidden = isApiError(list.query.error) && list.query.error.httpStatus === 403;
  const filtered =
    filters.patientId !== null || filters.userId !== null || dateChoice.option !== ALL_TIME.option;

  function filter(next: Partial<Filters>) {
    setFilters((previous) => ({ ...previous, ...next }));
    list.setPage(1);
  }

  const userName = (entry: AccessLogEntry) =>
    entry.user.surname
      ? `${entry.user.surname} ${entry.user.firstname ?? ''}`.trim()
      : entry.user.login;
  const userCell = (entry: AccessLogEntry) => (
    <>
      <Anchor
        component="button"
        type="button"
        fz="sm"
        onClick={() => filter({ userId: entry.user.id })}
        aria-label={t('accessLog.filterUser', { login: entry.user.login })}
      >
        {userName(entry)}
      </Anchor>
      <Text size="xs" c="dimmed">
        {entry.user.login}
      </Text>
    </>
  );
  const patientsCell = (entry: AccessLogEntry) => (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {entry.patient_ids.join(', ')}
    </Text>
  );

  const columns: Column<AccessLogEntry>[] = [
    {
      key: 'at',
      header: t('accessLog.at'),
      width: 150,
      cell: (e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</span>,
    },
    { key: 'user', header: t('accessLog.user'), cell: userCell },
    { key: 'kind', header: t('accessLog.kind'), cell: (e) => t(`accessLog.kinds.${e.kind}`) },
    { key: 'patients', header: t('accessLog.patients'), cell: patientsCell },
    { key: 'address', header: t('accessLog.address'), cell: (e) => e.address },
  ];

  if (forbidden) {
    return (
      <>
        <PageHeader title={t('accessLog.title')} />
        <Alert color="yellow" role="alert">
          {t('accessLog.forbidden')}
        </Alert>
      </>
    );
  }

  const renderCard = (entry: AccessLogEntry) => (
    <>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {t(`accessLog.kinds.${entry.kind}`)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.at)}
        </Text>
      </Group>
      <Text size="sm">
        {t('accessLog.user')}: {userName(entry)} ({entry.user.login})
      </Text>
      <Text size="sm">
        {t('accessLog.patients')}: {entry.patient_ids.join(', ')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('accessLog.address')}: {entry.address}
      </Text>
    </>
  );

  return (
    <>
      <PageHeader title={t('accessLog.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('accessLog.filters')}
          clearLabel={t('accessLog.clearFilters')}
          filtered={filtered}
          onClear={() => {
            setFilters(NO_FILTERS);
            setDateChoice(ALL_TIME);
            list.setPage(1);
          }}
        >
          <NumberInput
            label={t('accessLog.patientId')}
            value={filters.patientId ?? ''}
            onChange={(value) => filter({ patientId: typeof value === 'number' ? value : null })}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            w={{ base: '100%', xs: 160 }}
          />
          <NumberInput
            label={t('accessLog.userId')}
            value={filters.userId ?? ''}
            onChange={(value) => filter({ userId: typeof value === 'number' ? value : null })}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            w={{ base: '100%', xs: 160 }}
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
          label={t('accessLog.title')}
          searchable={false}
        />
      </Stack>
    </>
  );
}
