import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import type { Monitor } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { useListQuery } from '../../components/use-list-query';
import { useSoftDelete } from '../../components/use-soft-delete';
import { formatPhone } from '../../lib/format';

/**
 * The monitors list (ADR 051), as the doctors' list; /monitors/create and /monitors/{id}/edit
 * open their dialog over it (Outlet).
 */
export function MonitorsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery<Monitor>({ entity: ENTITY.monitors, path: '/monitors' });
  const softDelete = useSoftDelete({ entity: ENTITY.monitors, path: '/monitors' });

  const fullName = (monitor: Monitor) => `${monitor.surname} ${monitor.firstname}`;
  const unitNames = (monitor: Monitor) => monitor.units.map((unit) => unit.name).join(', ');
  const columns: Column<Monitor>[] = [
    { key: 'id', header: t('monitors.id'), sortKey: 'id', width: 80, cell: (m) => m.id },
    { key: 'name', header: t('monitors.fullName'), sortKey: 'surname', cell: fullName },
    {
      key: 'email',
      header: t('monitors.email'),
      sortKey: 'email',
      cell: (m) => <Anchor href={`mailto:${m.email}`}>{m.email}</Anchor>,
    },
    { key: 'units', header: t('monitors.units'), cell: unitNames },
    {
      key: 'phone',
      header: t('monitors.phone'),
      cell: (m) => <span style={{ whiteSpace: 'nowrap' }}>{formatPhone(m.phone_number)}</span>,
    },
    {
      key: 'operations',
      header: t('common.operations'),
      width: 240,
      actions: true,
      cell: (m) => (
        <RowActions
          deleted={!!m.deleted_at}
          onEdit={() => void navigate(`/monitors/${m.id}/edit`)}
          onDelete={() => softDelete.askDelete(m.id)}
          onRestore={() => softDelete.askRestore(m.id)}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('monitors.title')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => void navigate('/monitors/create')}
          >
            {t('monitors.add')}
          </Button>
        }
      />
      <DataTable
        list={list}
        columns={columns}
        label={t('monitors.title')}
        renderCard={(m) => (
          <Stack gap={2}>
            <Text fw={600}>{fullName(m)}</Text>
            <Text size="sm">{unitNames(m)}</Text>
            <Text size="sm">
              <Anchor href={`mailto:${m.email}`}>{m.email}</Anchor>
            </Text>
            <Text size="sm">
              <Anchor href={`tel:+48${m.phone_number}`}>{formatPhone(m.phone_number)}</Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              {t('monitors.id')}: {m.id}
            </Text>
          </Stack>
        )}
      />
      <Outlet />
    </>
  );
}
