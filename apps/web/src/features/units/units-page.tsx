import { ActionIcon, Button, Stack, Text, Tooltip } from '@mantine/core';
import { IconCalendarEvent, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Unit } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { useListQuery } from '../../components/use-list-query';
import { useSoftDelete } from '../../components/use-soft-delete';
import { formatAddress } from '../../lib/format';
import { reachesUnitCalendar, useCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { UnitFormModal } from './unit-form-modal';

type Editing = { unit: Unit | null } | null;

export function UnitsPage() {
  const { t } = useTranslation();
  const can = useCan();
  // Doctors may read units; only administrators manage them (ADR 004).
  const canManage = can('units.manage');
  const user = useSession()?.user;
  // The calendar button: every unit for administrators, the own unit for a doctor (ADR 004).
  const canCalendar = can('calendar.manage');
  const calendarButton = (unit: Unit) =>
    reachesUnitCalendar(user, unit.id) && (
      <Tooltip label={t('calendar.open')} withinPortal>
        <ActionIcon
          component={Link}
          to={`/units/calendar/${unit.id}`}
          variant="subtle"
          aria-label={t('calendar.openNamed', { name: unit.name })}
        >
          <IconCalendarEvent size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    );
  const list = useListQuery<Unit>({ entity: ENTITY.units, path: '/units' });
  const softDelete = useSoftDelete({ entity: ENTITY.units, path: '/units' });
  const [editing, setEditing] = useState<Editing>(null);

  const columns: Column<Unit>[] = [
    { key: 'id', header: t('units.id'), sortKey: 'id', width: 90, cell: (unit) => unit.id },
    { key: 'name', header: t('units.name'), sortKey: 'name', cell: (unit) => unit.name },
    { key: 'address', header: t('units.address'), cell: (unit) => formatAddress(unit) },
  ];
  if (canManage) {
    columns.push({
      key: 'operations',
      header: t('common.operations'),
      width: 240,
      actions: true,
      cell: (unit) => (
        <RowActions
          deleted={!!unit.deleted_at}
          onEdit={() => setEditing({ unit })}
          onDelete={() => softDelete.askDelete(unit.id)}
          onRestore={() => softDelete.askRestore(unit.id)}
        >
          {calendarButton(unit)}
        </RowActions>
      ),
    });
  } else if (canCalendar) {
    columns.push({
      key: 'operations',
      header: t('common.operations'),
      width: 120,
      actions: true,
      cell: (unit) => (unit.deleted_at ? null : calendarButton(unit)),
    });
  }

  return (
    <>
      <PageHeader
        title={t('units.title')}
        actions={
          canManage && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setEditing({ unit: null })}
            >
              {t('units.add')}
            </Button>
          )
        }
      />
      <DataTable
        list={list}
        columns={columns}
        label={t('units.title')}
        renderCard={(unit) => (
          <Stack gap={2}>
            <Text fw={600}>{unit.name}</Text>
            <Text size="sm">{formatAddress(unit)}</Text>
            <Text size="xs" c="dimmed">
              {t('units.id')}: {unit.id}
            </Text>
          </Stack>
        )}
      />
      {editing && (
        <UnitFormModal
          key={editing.unit?.id ?? 'new'}
          unit={editing.unit}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
