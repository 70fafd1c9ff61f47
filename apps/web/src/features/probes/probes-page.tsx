import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime, PROBE_STATUSES } from '@portal/shared';
import type { ProbeListItem } from '@portal/shared';
import { ListFilterBar } from '../../components/list-filter-bar';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { DateRangeFilter } from '../../components/date-range-filter';
import { ALL_TIME } from '../../components/date-range';
import type { DateRange, DateRangeChoice } from '../../components/date-range';
import { PageHeader } from '../../components/page-header';
import { PatientPicker } from '../../components/patient-picker';
import { useMedicines } from '../../api/lookups';
import { useUnitOptions } from '../../api/units';
import { useCan } from '../../lib/permissions';
import { useProbeList } from './probes-api';
import { probeFiltersFromUrl } from './probe-list-filters';
import type { ProbeListFilters } from './probe-list-filters';

const BIOCHEMISTRY = ['alt', 'ast', 'creatine', 'bilirubine'] as const;

const NO_FILTERS: ProbeListFilters = { patientIds: [], range: {} };

const patientName = (probe: ProbeListItem) =>
  `${probe.patient.surname} ${probe.patient.firstname}`.trim();

/**
 * /probes: every sample the user reaches (a doctor: the own unit's patients), newest first;
 * searched by number or patient, filtered by patients and the created day, sorted by any column
 * but the shipment's. A table on desktop, cards on a phone.
 */
export function ProbesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const allUnits = can('patients.all_units');
  // The dashboard's tiles link here with `?status`, `?out_of_norm` and `?unit_id` (ADR 060); the
  // URL keeps them, the other filters live in the screen.
  const [params, setParams] = useSearchParams();
  const fromUrl = probeFiltersFromUrl(params);
  const [local, setLocal] = useState<ProbeListFilters>(NO_FILTERS);
  const filters: ProbeListFilters = {
    ...local,
    ...fromUrl,
    unitId: allUnits ? fromUrl.unitId : null,
  };
  const [dateChoice, setDateChoice] = useState<DateRangeChoice>(ALL_TIME);
  const list = useProbeList(filters);
  const units = useUnitOptions({ enabled: allUnits });
  const medicines = useMedicines();
  const filtered =
    filters.patientIds.length > 0 ||
    dateChoice.option !== ALL_TIME.option ||
    filters.status !== null ||
    filters.outOfNorm !== null ||
    filters.unitId !== null;

  function filter(next: Partial<ProbeListFilters>) {
    setLocal((previous) => ({ ...previous, ...next }));
    list.setPage(1);
  }

  function filterUrl(name: 'status' | 'out_of_norm' | 'unit_id', value: string | null) {
    const updated = new URLSearchParams(params);
    if (value) updated.set(name, value);
    else updated.delete(name);
    setParams(updated, { replace: true });
    list.setPage(1);
  }

  function clearFilters() {
    setLocal(NO_FILTERS);
    setDateChoice(ALL_TIME);
    setParams({}, { replace: true });
    list.setPage(1);
  }

  const analyteOptions = [
    ...BIOCHEMISTRY.map((analyte) => ({
      value: analyte,
      label: t(`probeDetail.analytes.${analyte}`),
    })),
    ...(medicines.data ?? []).map((medicine) => ({
      value: `medicine_${medicine.id}`,
      label: t('dashboard.concentration', { name: medicine.name }),
    })),
  ];

  const created = (probe: ProbeListItem) => formatDateTime(probe.created_at);
  const material = (probe: ProbeListItem) => t(`probe.material.${probe.type_of_material}`);
  // A home sample's kit's shipment status; "-" for a sample without a kit or a waybill.
  const shipment = (probe: ProbeListItem) => probe.shipment?.last_status || '-';
  const details = (probe: ProbeListItem) => (
    <Anchor
      component={Link}
      fz="sm"
      to={`/probes/${probe.id}`}
      aria-label={t('probeList.detailsOf', { code: probe.code })}
    >
      {t('probe.details')}
    </Anchor>
  );

  const columns: Column<ProbeListItem>[] = [
    {
      key: 'created_at',
      header: t('probeList.createdAt'),
      sortKey: 'created_at',
      width: 150,
      cell: (p) => <span style={{ whiteSpace: 'nowrap' }}>{created(p)}</span>,
    },
    {
      key: 'code',
      header: t('probe.number'),
      sortKey: 'code',
      cell: (p) => <span style={{ overflowWrap: 'anywhere' }}>{p.code}</span>,
    },
    { key: 'patient', header: t('probeList.patient'), sortKey: 'patient', cell: patientName },
    {
      key: 'type_of_material',
      header: t('probeList.material'),
      sortKey: 'type_of_material',
      cell: material,
    },
    {
      key: 'shipment',
      header: t('probeList.shipment'),
      // The kit's status copied onto the sample (ADR 039): sorted like the other columns.
      sortKey: 'shipment_status',
      cell: shipment,
    },
    { key: 'details', header: t('probeList.actions'), cell: details, actions: true },
  ];

  const renderCard = (probe: ProbeListItem) => (
    <>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('probeList.cardTitle', { code: probe.code })}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {created(probe)}
        </Text>
      </Group>
      <Text size="sm">
        {t('probeList.patient')}: {patientName(probe)}
      </Text>
      <Text size="sm">
        {t('probeList.material')}: {material(probe)}
      </Text>
      <Text size="sm">
        {t('probeList.shipment')}: {shipment(probe)}
      </Text>
    </>
  );

  return (
    <>
      <PageHeader title={t('probeList.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('probeList.filters')}
          clearLabel={t('probeList.clearFilters')}
          filtered={filtered}
          onClear={clearFilters}
        >
          <PatientPicker
            label={t('probeList.patients')}
            placeholder={filters.patientIds.length ? undefined : t('probeList.patientsPlaceholder')}
            value={filters.patientIds}
            onChange={(patientIds) => filter({ patientIds })}
            clearable
            w={{ base: '100%', xs: 320 }}
          />
          <Select
            label={t('probeList.status')}
            placeholder={t('probeList.statusAll')}
            data={PROBE_STATUSES.map((status) => ({
              value: status,
              label: t(`probe.status.${status}`),
            }))}
            value={filters.status ?? null}
            onChange={(value) => filterUrl('status', value)}
            clearable
            w={{ base: '100%', xs: 200 }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('probeList.outOfNorm')}
            placeholder={t('probeList.outOfNormAll')}
            data={analyteOptions}
            value={filters.outOfNorm ?? null}
            onChange={(value) => filterUrl('out_of_norm', value)}
            searchable
            clearable
            w={{ base: '100%', xs: 240 }}
            comboboxProps={{ withinPortal: true }}
          />
          {allUnits && (
            <Select
              label={t('probeList.unit')}
              placeholder={t('probeList.allUnits')}
              data={(units.data ?? []).map((unit) => ({
                value: String(unit.id),
                label: unit.name,
              }))}
              value={filters.unitId ?? null}
              onChange={(value) => filterUrl('unit_id', value)}
              searchable
              clearable
              w={{ base: '100%', xs: 240 }}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <DateRangeFilter
            label={t('probeList.createdDays')}
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
          label={t('probeList.title')}
        />
      </Stack>
    </>
  );
}
