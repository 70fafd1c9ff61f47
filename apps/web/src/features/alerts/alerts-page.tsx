import { Anchor, Badge, Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '@portal/shared';
import type { SafetyAlert } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { useUnitOptions } from '../../api/units';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { PatientPicker } from '../../components/patient-picker';
import {
  AcknowledgeDialog,
  AlertSourceLink,
  useAlertDetailsText,
} from '../../components/safety-alert-parts';
import { useListQuery } from '../../components/use-list-query';
import { useCan } from '../../lib/permissions';

const STATUSES = ['open', 'acknowledged', 'all'] as const;
type StatusFilter = (typeof STATUSES)[number];

const fullName = (alert: SafetyAlert) => `${alert.patient.surname} ${alert.patient.firstname}`;

/**
 * /alerts, "Alerty bezpieczeństwa": the safety alerts of the patients the user reaches
 * (docs/product-rules.md "Safety alerts"), open ones first by default, with their values, source
 * and acknowledgement.
 */
export function AlertsPage() {
  const { t } = useTranslation();
  const can = useCan();
  // A link may name the status (`?status=open`, the dashboard's tile, ADR 060).
  const [params] = useSearchParams();
  const [status, setStatus] = useState<StatusFilter>(() => {
    const named = params.get('status');
    return STATUSES.find((value) => value === named) ?? 'open';
  });
  const [patientIds, setPatientIds] = useState<string[]>([]);
  // ... and the unit (`?unit_id=3`), for an administrator.
  const allUnits = can('patients.all_units');
  const [unitId, setUnitId] = useState<string | null>(() =>
    allUnits && /^\d+$/.test(params.get('unit_id') ?? '') ? params.get('unit_id') : null,
  );
  const units = useUnitOptions({ enabled: allUnits });
  const [acknowledging, setAcknowledging] = useState<SafetyAlert | null>(null);
  const detailsText = useAlertDetailsText();
  const list = useListQuery<SafetyAlert>({
    entity: ENTITY.alerts,
    path: '/alerts',
    orderBy: 'created_at',
    direction: 'desc',
    params: {
      status: status === 'all' ? undefined : status,
      patientIds: patientIds.join(',') || undefined,
      unit_id: unitId ?? undefined,
    },
  });

  const patientCell = (row: SafetyAlert) => (
    <Anchor
      component={Link}
      fz="sm"
      to={`/patients/card/${row.patient_id}`}
      aria-label={t('alerts.openCard', { name: fullName(row) })}
    >
      {fullName(row)}
    </Anchor>
  );
  const ruleCell = (row: SafetyAlert) => (
    <Text size="sm" fw={row.acknowledged_at ? undefined : 700}>
      {t(`alerts.rules.${row.rule}`)}
    </Text>
  );
  const acknowledgedText = (row: SafetyAlert) =>
    row.acknowledged_at
      ? `${formatDateTime(row.acknowledged_at)}${row.acknowledged_by_name ? `, ${row.acknowledged_by_name}` : ''}`
      : null;
  const stateCell = (row: SafetyAlert) => {
    const acknowledged = acknowledgedText(row);
    if (acknowledged) {
      return (
        <div>
          <Text size="sm">{acknowledged}</Text>
          {row.acknowledge_comment && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {row.acknowledge_comment}
            </Text>
          )}
        </div>
      );
    }
    return (
      <Badge color="red" variant="filled">
        {t('alerts.open')}
      </Badge>
    );
  };
  const action = (row: SafetyAlert) =>
    !row.acknowledged_at && can('alerts.acknowledge') ? (
      <Button
        size="xs"
        variant="light"
        color="red"
        onClick={() => setAcknowledging(row)}
        aria-label={t('alerts.acknowledgeFor', {
          rule: t(`alerts.rules.${row.rule}`),
          name: fullName(row),
        })}
      >
        {t('alerts.acknowledge')}
      </Button>
    ) : null;

  const columns: Column<SafetyAlert>[] = [
    {
      key: 'created',
      header: t('alerts.createdAt'),
      sortKey: 'created_at',
      cell: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</span>,
    },
    { key: 'patient', header: t('alerts.patient'), cell: patientCell },
    { key: 'rule', header: t('alerts.rule'), cell: ruleCell },
    { key: 'details', header: t('alerts.detailsHeader'), cell: (row) => detailsText(row.details) },
    { key: 'source', header: t('alerts.source'), cell: (row) => <AlertSourceLink alert={row} /> },
    { key: 'state', header: t('alerts.acknowledgement'), cell: stateCell },
    { key: 'action', header: t('common.operations'), actions: true, cell: action },
  ];

  const renderCard = (row: SafetyAlert) => (
    <>
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Text fw={600} size="sm">
          {patientCell(row)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(row.created_at)}
        </Text>
      </Group>
      {ruleCell(row)}
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {detailsText(row.details)}
      </Text>
      <Group gap="xs" mt={4} wrap="wrap">
        <AlertSourceLink alert={row} />
        {stateCell(row)}
      </Group>
    </>
  );

  return (
    <>
      <PageHeader title={t('alerts.title')} />
      <Stack gap="md">
        <Group
          component="section"
          aria-label={t('alerts.filters')}
          gap="sm"
          align="flex-end"
          wrap="wrap"
        >
          <Stack gap={4}>
            <Text size="sm" fw={500} id="alerts-status-label">
              {t('alerts.status')}
            </Text>
            <SegmentedControl
              aria-labelledby="alerts-status-label"
              value={status}
              onChange={(value) => {
                setStatus(value);
                list.setPage(1);
              }}
              data={STATUSES.map((value) => ({ value, label: t(`alerts.statuses.${value}`) }))}
            />
          </Stack>
          <PatientPicker
            label={t('alerts.patients')}
            placeholder={patientIds.length ? undefined : t('alerts.patientsPlaceholder')}
            value={patientIds}
            onChange={(ids) => {
              setPatientIds(ids);
              list.setPage(1);
            }}
            clearable
            w={{ base: '100%', xs: 320 }}
          />
          {allUnits && (
            <Select
              label={t('probeList.unit')}
              placeholder={t('probeList.allUnits')}
              data={(units.data ?? []).map((unit) => ({
                value: String(unit.id),
                label: unit.name,
              }))}
              value={unitId}
              onChange={(value) => {
                setUnitId(value);
                list.setPage(1);
              }}
              searchable
              clearable
              w={{ base: '100%', xs: 280 }}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        </Group>
        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('alerts.title')}
          searchable={false}
        />
      </Stack>
      <AcknowledgeDialog alert={acknowledging} onClose={() => setAcknowledging(null)} />
    </>
  );
}
