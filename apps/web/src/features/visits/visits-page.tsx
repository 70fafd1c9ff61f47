import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDay } from '@portal/shared';
import type { Visit } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { useUnitOptions } from '../../api/units';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { ListFilterBar } from '../../components/list-filter-bar';
import { PageHeader } from '../../components/page-header';
import { useListQuery } from '../../components/use-list-query';
import { useCan } from '../../lib/permissions';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const WINDOWS = ['all', 'in', 'out'] as const;

const fullName = (visit: Visit) => `${visit.patient.surname} ${visit.patient.firstname}`;

/**
 * The list's filters, read from the URL (`?from&to&unit_id&out_of_window`), so that a
 * dashboard tile's link opens the list filtered as the tile counts (ADR 060) and the filtered
 * list can be shared or reloaded.
 */
function useVisitFilters() {
  const [params, setParams] = useSearchParams();
  const day = (name: string) => {
    const value = params.get(name);
    return value && DAY.test(value) ? value : undefined;
  };
  const unit = params.get('unit_id');
  const window = params.get('out_of_window');
  const filters = {
    from: day('from'),
    to: day('to'),
    unitId: unit && /^\d+$/.test(unit) ? unit : null,
    window: window === '1' ? 'out' : window === '0' ? 'in' : 'all',
  };
  const change = (next: Partial<Record<string, string | null>>) => {
    const updated = new URLSearchParams(params);
    for (const [name, value] of Object.entries(next)) {
      if (value) updated.set(name, value);
      else updated.delete(name);
    }
    setParams(updated, { replace: true });
  };
  return { filters, change, clear: () => setParams({}, { replace: true }) };
}

/**
 * /visits: the live visits of active patients within reach (a doctor: the own unit), oldest
 * first, narrowed by days, unit and window (GET /api/visits without a date, ADR 038).
 */
export function VisitsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const allUnits = can('patients.all_units');
  const { filters, change, clear } = useVisitFilters();
  const list = useListQuery<Visit>({
    entity: ENTITY.visits,
    path: '/visits',
    params: {
      from: filters.from,
      to: filters.to,
      unit_id: allUnits ? (filters.unitId ?? undefined) : undefined,
      out_of_window: filters.window === 'all' ? undefined : filters.window === 'out' ? '1' : '0',
    },
  });
  const units = useUnitOptions({ enabled: allUnits });
  const unitName = new Map((units.data ?? []).map((unit) => [unit.id, unit.name]));
  const filtered =
    filters.from !== undefined ||
    filters.to !== undefined ||
    filters.window !== 'all' ||
    (allUnits && filters.unitId !== null);

  const days =
    filters.from && filters.to
      ? t('visitList.days', { from: formatDay(filters.from), to: formatDay(filters.to) })
      : filters.from
        ? t('visitList.daysFrom', { from: formatDay(filters.from) })
        : filters.to
          ? t('visitList.daysTo', { to: formatDay(filters.to) })
          : null;

  const time = (visit: Visit) => visit.started_at.slice(0, 5);
  const windowText = (visit: Visit) =>
    visit.out_of_window ? t('visitList.windowOut') : t('visitList.windowIn');
  const open = (visit: Visit) => (
    <Anchor
      component={Link}
      fz="sm"
      to={`/patients/${visit.patient_id}/visits/${visit.id}`}
      aria-label={t('visitList.openOf', { name: fullName(visit), date: formatDay(visit.date) })}
    >
      {t('visitList.open')}
    </Anchor>
  );

  const columns: Column<Visit>[] = [
    { key: 'date', header: t('visitList.date'), cell: (v) => formatDay(v.date) },
    { key: 'time', header: t('visitList.time'), cell: time },
    { key: 'patient', header: t('visitList.patient'), cell: fullName },
    ...(allUnits
      ? [
          {
            key: 'unit',
            header: t('visitList.unit'),
            cell: (v: Visit) => unitName.get(v.unit_id) ?? '-',
          },
        ]
      : []),
    { key: 'window', header: t('visitList.window'), cell: windowText },
    { key: 'open', header: t('common.operations'), cell: open, actions: true },
  ];

  const renderCard = (visit: Visit) => (
    <>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {fullName(visit)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDay(visit.date)} {time(visit)}
        </Text>
      </Group>
      {allUnits && (
        <Text size="sm">
          {t('visitList.unit')}: {unitName.get(visit.unit_id) ?? '-'}
        </Text>
      )}
      <Text size="sm">
        {t('visitList.window')}: {windowText(visit)}
      </Text>
      {open(visit)}
    </>
  );

  return (
    <>
      <PageHeader title={t('visitList.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('visitList.filters')}
          clearLabel={t('visitList.clearFilters')}
          filtered={filtered}
          onClear={() => {
            clear();
            list.setPage(1);
          }}
        >
          {allUnits && (
            <Select
              label={t('visitList.unit')}
              placeholder={t('visitList.allUnits')}
              data={(units.data ?? []).map((unit) => ({
                value: String(unit.id),
                label: unit.name,
              }))}
              value={filters.unitId}
              onChange={(value) => {
                change({ unit_id: value });
                list.setPage(1);
              }}
              searchable
              clearable
              w={{ base: '100%', xs: 280 }}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Select
            label={t('visitList.window')}
            data={WINDOWS.map((value) => ({
              value,
              label: t(
                value === 'all'
                  ? 'visitList.windowAll'
                  : value === 'in'
                    ? 'visitList.windowIn'
                    : 'visitList.windowOut',
              ),
            }))}
            value={filters.window}
            onChange={(value) => {
              change({ out_of_window: value === 'out' ? '1' : value === 'in' ? '0' : null });
              list.setPage(1);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 220 }}
            comboboxProps={{ withinPortal: true }}
          />
          {days && (
            <Text size="sm" pb={8}>
              {days}
            </Text>
          )}
        </ListFilterBar>
        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('visitList.title')}
        />
      </Stack>
    </>
  );
}
