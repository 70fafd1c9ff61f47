import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import type { Doctor } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { useListQuery } from '../../components/use-list-query';
import { useSoftDelete } from '../../components/use-soft-delete';
import { formatPhone } from '../../lib/format';

/** The doctors list; /doctors/create and /doctors/{id}/edit open their dialog over it (Outlet). */
export function DoctorsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery<Doctor>({ entity: ENTITY.doctors, path: '/doctors' });
  const softDelete = useSoftDelete({ entity: ENTITY.doctors, path: '/doctors' });

  const fullName = (doctor: Doctor) => `${doctor.surname} ${doctor.firstname}`;
  const columns: Column<Doctor>[] = [
    { key: 'id', header: t('doctors.id'), sortKey: 'id', width: 80, cell: (d) => d.id },
    { key: 'name', header: t('doctors.fullName'), sortKey: 'surname', cell: fullName },
    {
      key: 'email',
      header: t('doctors.email'),
      sortKey: 'email',
      cell: (d) => <Anchor href={`mailto:${d.email}`}>{d.email}</Anchor>,
    },
    { key: 'unit', header: t('doctors.unit'), sortKey: 'unit', cell: (d) => d.unit.name },
    {
      key: 'phone',
      header: t('doctors.phone'),
      sortKey: 'phone_number',
      cell: (d) => <span style={{ whiteSpace: 'nowrap' }}>{formatPhone(d.phone_number)}</span>,
    },
    {
      key: 'operations',
      header: t('common.operations'),
      width: 240,
      actions: true,
      cell: (d) => (
        <RowActions
          deleted={!!d.deleted_at}
          onEdit={() => void navigate(`/doctors/${d.id}/edit`)}
          onDelete={() => softDelete.askDelete(d.id)}
          onRestore={() => softDelete.askRestore(d.id)}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('doctors.title')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => void navigate('/doctors/create')}
          >
            {t('doctors.add')}
          </Button>
        }
      />
      <DataTable
        list={list}
        columns={columns}
        label={t('doctors.title')}
        renderCard={(d) => (
          <Stack gap={2}>
            <Text fw={600}>{fullName(d)}</Text>
            <Text size="sm">{d.unit.name}</Text>
            <Text size="sm">
              <Anchor href={`mailto:${d.email}`}>{d.email}</Anchor>
            </Text>
            <Text size="sm">
              <Anchor href={`tel:+48${d.phone_number}`}>{formatPhone(d.phone_number)}</Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              {t('doctors.id')}: {d.id}
            </Text>
          </Stack>
        )}
      />
      <Outlet />
    </>
  );
}
