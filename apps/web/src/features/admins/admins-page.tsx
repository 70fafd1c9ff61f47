import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import type { Admin } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { useListQuery } from '../../components/use-list-query';
import { useSoftDelete } from '../../components/use-soft-delete';
import { deleteRefusalKey } from './admins-api';

/** The administrators list; /admins/create and /admins/{id}/edit open their dialog over it. */
export function AdminsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery<Admin>({ entity: ENTITY.admins, path: '/admins' });
  const softDelete = useSoftDelete({
    entity: ENTITY.admins,
    path: '/admins',
    describeError: (error) => {
      const key = deleteRefusalKey(error);
      return key ? t(key) : undefined;
    },
  });

  const columns: Column<Admin>[] = [
    { key: 'id', header: t('admins.id'), sortKey: 'id', width: 80, cell: (a) => a.id },
    { key: 'login', header: t('admins.login'), sortKey: 'login', cell: (a) => a.login },
    {
      key: 'operations',
      header: t('common.operations'),
      width: 240,
      actions: true,
      cell: (a) => (
        <RowActions
          deleted={!!a.deleted_at}
          onEdit={() => void navigate(`/admins/${a.id}/edit`)}
          onDelete={() => softDelete.askDelete(a.id)}
          onRestore={() => softDelete.askRestore(a.id)}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('admins.title')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => void navigate('/admins/create')}
          >
            {t('admins.add')}
          </Button>
        }
      />
      <DataTable
        list={list}
        columns={columns}
        label={t('admins.title')}
        renderCard={(a) => (
          <Stack gap={2}>
            <Text fw={600}>{a.login}</Text>
            <Text size="xs" c="dimmed">
              {t('admins.id')}: {a.id}
            </Text>
          </Stack>
        )}
      />
      <Outlet />
    </>
  );
}
