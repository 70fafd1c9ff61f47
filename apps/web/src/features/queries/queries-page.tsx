import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { QUERY_STATUSES, UNRESOLVED_QUERY_STATUSES, formatDateTime } from '@portal/shared';
import type { DataQuery } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { useReachableUnitOptions } from '../../api/units';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { ListFilterBar } from '../../components/list-filter-bar';
import { PageHeader } from '../../components/page-header';
import { useListQuery } from '../../components/use-list-query';
import { useCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { QueryStatusBadge } from '../../entities/monitoring/query-thread';
import { authorName, recordPath, useFieldLabel } from '../../entities/monitoring/query-format';

/** The unresolved queries, as the dashboard's tile counts them and links here (ADR 060). */
const UNRESOLVED = UNRESOLVED_QUERY_STATUSES.join(',');
/** One of QUERY_STATUSES, or UNRESOLVED; checked by statusFilterOf. */
type StatusFilter = string;

/** A status filter from the address: one status, or the unresolved ones in either order. */
function statusFilterOf(value: string | null): StatusFilter | null {
  if (value === null) return null;
  if ((QUERY_STATUSES as readonly string[]).includes(value)) return value;
  const named = [...new Set(value.split(','))].sort().join(',');
  return named === [...UNRESOLVED_QUERY_STATUSES].sort().join(',') ? UNRESOLVED : null;
}

/**
 * /queries, "Zapytania" (ADR 051): the monitors' queries of the units the user reaches, newest
 * first, by status and (for who reaches several units) by unit, each with its record, field,
 * age and last message. The filters live in the address (`?status=open&unit_id=2`), so that a
 * link (the dashboard's tile, `?status=open,answered`) opens the list filtered. The unit filter
 * offers the units within reach only (`/units/all?reachable=1`): another unit is the API's 404.
 */
export function QueriesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  // A doctor reaches the own unit only; administrators and monitors choose among units.
  const severalUnits = !(session?.user.unit_id && !can('patients.all_units'));
  const units = useReachableUnitOptions({ enabled: severalUnits });
  const [status, setStatusState] = useState<StatusFilter | null>(() =>
    statusFilterOf(params.get('status')),
  );
  const [unitId, setUnitIdState] = useState<string | null>(
    severalUnits ? params.get('unit_id') : null,
  );
  const list = useListQuery<DataQuery>({
    entity: ENTITY.queries,
    path: '/queries',
    params: { status: status ?? undefined, unit_id: unitId ?? undefined },
  });
  const unitName = (id: number) => units.data?.find((unit) => unit.id === id)?.name ?? `#${id}`;

  const remember = (next: { status: StatusFilter | null; unitId: string | null }) => {
    setStatusState(next.status);
    setUnitIdState(next.unitId);
    list.setPage(1);
    const search = new URLSearchParams();
    if (next.status) search.set('status', next.status);
    if (next.unitId) search.set('unit_id', next.unitId);
    setParams(search, { replace: true });
  };

  const fieldLabel = useFieldLabel();
  const field = (row: DataQuery) => fieldLabel(row.record_type, row.field);
  const recordCell = (row: DataQuery) => (
    <Anchor component={Link} to={recordPath(row)} size="sm">
      {t('queries.recordText', {
        record: t(`monitoring.recordTypes.${row.record_type}`),
        id: row.record_id,
        patient: row.patient_id,
      })}
    </Anchor>
  );
  const lastMessage = (row: DataQuery) => {
    const last = row.messages.at(-1);
    return last ? (
      <div>
        <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {last.text}
        </Text>
        <Text size="xs" c="dimmed">
          {authorName(last.author)}, {formatDateTime(last.created_at)}
        </Text>
      </div>
    ) : null;
  };
  const age = (row: DataQuery) => t('monitoring.age', { count: row.age_days });

  const columns: Column<DataQuery>[] = [
    {
      key: 'created',
      header: t('queries.openedAt'),
      cell: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</span>,
    },
    { key: 'age', header: t('queries.age'), cell: age },
    {
      key: 'status',
      header: t('queries.status'),
      cell: (row) => <QueryStatusBadge status={row.status} />,
    },
    ...(severalUnits
      ? [
          {
            key: 'unit',
            header: t('queries.unit'),
            cell: (row: DataQuery) => unitName(row.unit_id),
          },
        ]
      : []),
    { key: 'record', header: t('queries.record'), cell: recordCell },
    { key: 'field', header: t('queries.field'), cell: field },
    { key: 'message', header: t('queries.lastMessage'), cell: lastMessage },
  ];

  const renderCard = (row: DataQuery) => (
    <>
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Text fw={600} size="sm" component="span">
          {field(row)}
        </Text>
        <QueryStatusBadge status={row.status} />
      </Group>
      <Group gap="xs" wrap="wrap">
        {recordCell(row)}
        <Text size="xs" c="dimmed">
          {age(row)}
          {severalUnits && ` · ${unitName(row.unit_id)}`}
        </Text>
      </Group>
      {lastMessage(row)}
    </>
  );

  return (
    <>
      <PageHeader title={t('queries.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('queries.filters')}
          clearLabel={t('queries.clearFilters')}
          filtered={status !== null || unitId !== null}
          onClear={() => remember({ status: null, unitId: null })}
        >
          <Select
            label={t('queries.status')}
            placeholder={t('queries.allStatuses')}
            data={[
              { value: UNRESOLVED, label: t('queries.unresolved') },
              ...QUERY_STATUSES.map((value) => ({
                value,
                label: t(`monitoring.statuses.${value}`),
              })),
            ]}
            value={status}
            onChange={(value) => remember({ status: statusFilterOf(value), unitId })}
            clearable
            w={{ base: '100%', xs: 220 }}
            comboboxProps={{ withinPortal: true }}
          />
          {severalUnits && (
            <Select
              label={t('queries.unit')}
              placeholder={t('queries.allUnits')}
              data={(units.data ?? []).map((unit) => ({
                value: String(unit.id),
                label: unit.name,
              }))}
              value={unitId}
              onChange={(value) => remember({ status, unitId: value })}
              searchable
              clearable
              w={{ base: '100%', xs: 320 }}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        </ListFilterBar>
        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('queries.title')}
          searchable={false}
        />
      </Stack>
    </>
  );
}
