import { Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDay } from '@portal/shared';
import type { OverdueVisit } from '@portal/shared';
import { useUnitOptions } from '../../api/units';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { useCan } from '../../lib/permissions';
import { bookingPath, useOverdueList } from './overdue-api';

const fullName = (row: OverdueVisit) => `${row.patient.surname} ${row.patient.firstname}`;

/**
 * /visits/overdue: patients whose next visit's window closed without a visit (ADR 029), the
 * longest overdue first, each with a link that opens the booking dialog on the patient's card.
 * A doctor sees the own unit; an administrator every unit or the one chosen.
 */
export function OverduePage() {
  const { t } = useTranslation();
  const can = useCan();
  const allUnits = can('patients.all_units');
  // A link may name the unit (`?unit_id=3`, the dashboard's tile, ADR 060).
  const [params] = useSearchParams();
  const [unitId, setUnitId] = useState<string | null>(() =>
    allUnits && /^\d+$/.test(params.get('unit_id') ?? '') ? params.get('unit_id') : null,
  );
  const list = useOverdueList(unitId);
  const units = useUnitOptions({ enabled: allUnits });
  const unitName = new Map((units.data ?? []).map((unit) => [unit.id, unit.name]));

  const patientCell = (row: OverdueVisit) => (
    <Anchor
      component={Link}
      fz="sm"
      to={`/patients/card/${row.patient_id}`}
      aria-label={t('overdue.openCard', { name: fullName(row) })}
    >
      {fullName(row)}
    </Anchor>
  );
  const windowText = (row: OverdueVisit) =>
    `${formatDay(row.window_from)} – ${formatDay(row.window_to)}`;
  // Booking is a write: a monitor reads the list without it (ADR 051).
  const bookLink = (row: OverdueVisit) =>
    can('visits.write') && (
      <Button
        component={Link}
        to={bookingPath(row.patient_id)}
        size="xs"
        variant="light"
        leftSection={<IconCalendarPlus size={16} aria-hidden />}
        aria-label={t('overdue.bookFor', { name: fullName(row) })}
      >
        {t('overdue.book')}
      </Button>
    );

  const columns: Column<OverdueVisit>[] = [
    { key: 'patient', header: t('overdue.patient'), sortKey: 'surname', cell: patientCell },
    { key: 'pesel', header: t('overdue.pesel'), cell: (row) => row.patient.pesel },
    ...(allUnits
      ? [
          {
            key: 'unit',
            header: t('overdue.unit'),
            cell: (row: OverdueVisit) => unitName.get(row.unit_id) ?? '-',
          },
        ]
      : []),
    { key: 'visit', header: t('overdue.visit'), cell: (row) => row.visit },
    {
      key: 'target',
      header: t('overdue.targetDate'),
      cell: (row) => formatDay(row.target_date),
    },
    {
      key: 'window',
      header: t('overdue.window'),
      sortKey: 'window_to',
      cell: (row) => <span style={{ whiteSpace: 'nowrap' }}>{windowText(row)}</span>,
    },
    {
      key: 'last',
      header: t('overdue.lastVisit'),
      cell: (row) => formatDay(row.last_visit_date),
    },
    { key: 'book', header: t('common.operations'), actions: true, cell: bookLink },
  ];

  const renderCard = (row: OverdueVisit) => (
    <>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {patientCell(row)}
        </Text>
        <Text size="xs" c="dimmed">
          {row.patient.pesel}
        </Text>
      </Group>
      {allUnits && (
        <Text size="sm">
          {t('overdue.unit')}: {unitName.get(row.unit_id) ?? '-'}
        </Text>
      )}
      <Text size="sm">
        {t('overdue.visit')}: {row.visit} · {t('overdue.targetDate')}: {formatDay(row.target_date)}
      </Text>
      <Text size="sm">
        {t('overdue.window')}: {windowText(row)}
      </Text>
      <Text size="sm">
        {t('overdue.lastVisit')}: {formatDay(row.last_visit_date)}
      </Text>
    </>
  );

  return (
    <>
      <PageHeader title={t('overdue.title')} />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('overdue.intro')}
        </Text>
        {allUnits && (
          <Select
            label={t('overdue.unit')}
            placeholder={t('overdue.allUnits')}
            data={(units.data ?? []).map((unit) => ({ value: String(unit.id), label: unit.name }))}
            value={unitId}
            onChange={(value) => {
              setUnitId(value);
              list.setPage(1);
            }}
            searchable
            clearable
            w={{ base: '100%', xs: 320 }}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('overdue.title')}
        />
      </Stack>
    </>
  );
}
