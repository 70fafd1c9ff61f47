import { Anchor, Badge, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, PROBE_SET_STATUSES } from '@portal/shared';
import type { ProbeSetListItem, ProbeSetStatus } from '@portal/shared';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { DateRangeFilter } from '../../components/date-range-filter';
import { ALL_TIME } from '../../components/date-range';
import type { DateRange, DateRangeChoice } from '../../components/date-range';
import { ListFilterBar } from '../../components/list-filter-bar';
import { PageHeader } from '../../components/page-header';
import { PatientPicker } from '../../components/patient-picker';
import {
  PROBE_SET_STATUS_COLOR,
  probeSetAddress,
  shipmentStatusText,
} from '../../entities/kit-orders/probe-set-format';
import { NO_PROBE_SET_FILTERS } from './probe-set-filters';
import type { ProbeSetListFilters } from './probe-set-filters';
import { useProbeSetList } from './probe-sets-api';

const patientName = (order: ProbeSetListItem) =>
  `${order.patient.surname} ${order.patient.firstname}`.trim();

/**
 * /probe-sets (docs/product-rules.md "Lists and paging"): every kit order the user reaches (a
 * doctor: the own unit's patients), newest first; filtered by patients, the created day and the
 * status. A table on desktop, cards on a phone.
 */
export function ProbeSetsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<ProbeSetListFilters>(NO_PROBE_SET_FILTERS);
  const [dateChoice, setDateChoice] = useState<DateRangeChoice>(ALL_TIME);
  const list = useProbeSetList(filters);
  const filtered =
    filters.patientIds.length > 0 ||
    filters.status !== null ||
    dateChoice.option !== ALL_TIME.option;

  function filter(next: Partial<ProbeSetListFilters>) {
    setFilters((previous) => ({ ...previous, ...next }));
    list.setPage(1);
  }

  function clearFilters() {
    setFilters(NO_PROBE_SET_FILTERS);
    setDateChoice(ALL_TIME);
    list.setPage(1);
  }

  const created = (order: ProbeSetListItem) => formatDateTime(order.created_at);
  const status = (order: ProbeSetListItem) => (
    <Badge
      color={PROBE_SET_STATUS_COLOR[order.status]}
      variant="dot"
      style={{ whiteSpace: 'nowrap' }}
    >
      {t(`probeSets.status.${order.status}`)}
    </Badge>
  );
  const shipment = (order: ProbeSetListItem) => shipmentStatusText(order.shipment);
  const patient = (order: ProbeSetListItem) => (
    <Anchor component={Link} to={`/patients/card/${order.patient_id}`} fz="sm">
      {patientName(order)}
    </Anchor>
  );
  const details = (order: ProbeSetListItem) => (
    <Anchor
      component={Link}
      fz="sm"
      to={`/probe-sets/${order.id}`}
      aria-label={t('probeSets.detailsOf', { id: order.id })}
    >
      {t('probeSets.details')}
    </Anchor>
  );

  const columns: Column<ProbeSetListItem>[] = [
    {
      key: 'created_at',
      header: t('probeSets.createdAt'),
      sortKey: 'created_at',
      width: 150,
      cell: (o) => <span style={{ whiteSpace: 'nowrap' }}>{created(o)}</span>,
    },
    { key: 'patient', header: t('probeSets.patient'), sortKey: 'patient', cell: patient },
    { key: 'amount', header: t('probeSets.amount'), sortKey: 'amount', cell: (o) => o.amount },
    {
      key: 'address',
      header: t('probeSets.address'),
      cell: (o) => <span style={{ overflowWrap: 'anywhere' }}>{probeSetAddress(o)}</span>,
    },
    {
      key: 'status',
      header: t('probeSets.statusLabel'),
      sortKey: 'status',
      // Wide enough for "Zaakceptowane" on its badge.
      width: 170,
      cell: status,
    },
    { key: 'shipment', header: t('probeSets.shipment'), cell: shipment },
    { key: 'details', header: t('probeSets.actions'), cell: details, actions: true },
  ];

  const renderCard = (order: ProbeSetListItem) => (
    <>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Text fw={600} size="sm">
          {t('probeSets.orderNumber', { id: order.id })}
        </Text>
        {status(order)}
      </Group>
      <Text size="xs" c="dimmed" mb={4}>
        {created(order)}
      </Text>
      <Text size="sm">
        {t('probeSets.patient')}: {patient(order)}
      </Text>
      <Text size="sm">
        {t('probeSets.amount')}: {order.amount}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {t('probeSets.address')}: {probeSetAddress(order)}
      </Text>
      <Text size="sm">
        {t('probeSets.shipment')}: {shipment(order)}
      </Text>
    </>
  );

  return (
    <>
      <PageHeader title={t('probeSets.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('probeSets.filters')}
          clearLabel={t('probeSets.clearFilters')}
          filtered={filtered}
          onClear={clearFilters}
        >
          <PatientPicker
            label={t('probeSets.patients')}
            placeholder={filters.patientIds.length ? undefined : t('probeSets.patientsPlaceholder')}
            value={filters.patientIds}
            onChange={(patientIds) => filter({ patientIds })}
            clearable
            w={{ base: '100%', xs: 320 }}
          />
          <DateRangeFilter
            label={t('probeSets.createdDays')}
            value={dateChoice}
            onChange={(choice: DateRangeChoice, dates: DateRange) => {
              setDateChoice(choice);
              filter({ range: dates });
            }}
          />
          <Select
            label={t('probeSets.statusLabel')}
            placeholder={t('probeSets.allStatuses')}
            data={PROBE_SET_STATUSES.map((value) => ({
              value: String(value),
              label: t(`probeSets.status.${value}`),
            }))}
            value={filters.status === null ? null : String(filters.status)}
            onChange={(value) =>
              filter({ status: value === null ? null : (Number(value) as ProbeSetStatus) })
            }
            clearable
            allowDeselect
            w={{ base: '100%', xs: 200 }}
            comboboxProps={{ withinPortal: true }}
          />
        </ListFilterBar>

        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('probeSets.title')}
        />
      </Stack>
    </>
  );
}
