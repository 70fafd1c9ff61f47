import {
  Alert,
  Box,
  Card,
  Center,
  Group,
  Loader,
  LoadingOverlay,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@portal/shared';
import classes from './data-table.module.css';
import { ariaSort, formatCount, formatTotal } from './list-state';
import { SearchInput } from './search-input';
import type { ListController } from './use-list-query';
import { useIsDesktop } from './use-is-desktop';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The server's order_by name; set only for sortable columns. */
  sortKey?: string;
  width?: number | string;
  /** The operations column: full opacity on deleted rows, shown at the bottom of cards. */
  actions?: boolean;
}

export interface TableRow {
  id: number;
  deleted_at?: string | null;
}

interface DataTableProps<T extends TableRow> {
  list: ListController<T>;
  columns: Column<T>[];
  /** Body of the card that replaces a row below 1280 px; the operations are appended to it. */
  renderCard: (row: T) => ReactNode;
  /** Accessible name of the table, usually the page title. */
  label: string;
  /** False for lists whose endpoint has no search (the audit trail filters instead). */
  searchable?: boolean;
  /** Narrower cell padding, for a wide list that must fit from 1280 px (patients, ADR 039). */
  dense?: boolean;
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  if (direction === 'ascending') return <IconArrowUp size={14} aria-hidden />;
  if (direction === 'descending') return <IconArrowDown size={14} aria-hidden />;
  return <IconArrowsSort size={14} aria-hidden className={classes.idleSort} />;
}

/**
 * The one list widget of the portal: search, sortable headers, page size, range indicator and
 * pagination; a table on desktop and cards on phones. Deleted rows are greyed and marked with
 * data-deleted.
 */
export function DataTable<T extends TableRow>({
  list,
  columns,
  renderCard,
  label,
  searchable = true,
  dense = false,
}: DataTableProps<T>) {
  const { t, i18n } = useTranslation();
  const isDesktop = useIsDesktop();
  const { state, query, rows, summary } = list;
  const language = i18n.language;
  const total = summary && formatTotal(summary.total, summary.kind, language, t);
  const actionColumn = columns.find((column) => column.actions);
  const sortable = columns.filter((column) => column.sortKey);

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  } else if (query.isError && !query.data) {
    content = (
      <Alert color="red" role="alert">
        {t('list.loadError')}
      </Alert>
    );
  } else if (rows.length === 0) {
    content = (
      <Text c="dimmed" ta="center" py="xl">
        {t('list.empty')}
      </Text>
    );
  } else if (isDesktop) {
    content = (
      <Table.ScrollContainer minWidth={720}>
        <Table
          aria-label={label}
          striped
          highlightOnHover
          verticalSpacing="sm"
          horizontalSpacing={dense ? 6 : 'xs'}
        >
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const sort = column.sortKey ? ariaSort(state, column.sortKey) : undefined;
                const sortKey = column.sortKey;
                return (
                  <Table.Th key={column.key} w={column.width} aria-sort={sort}>
                    {sortKey ? (
                      <UnstyledButton
                        className={classes.sortButton}
                        onClick={() => list.sortBy(sortKey)}
                      >
                        {column.header}
                        <SortIcon direction={sort ?? 'none'} />
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const deleted = !!row.deleted_at;
              return (
                <Table.Tr key={row.id} data-deleted={deleted || undefined}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.key}
                      className={deleted && !column.actions ? classes.deleted : undefined}
                    >
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  } else {
    content = (
      <Stack gap="sm" component="ul" className={classes.cards} aria-label={label}>
        {rows.map((row) => {
          const deleted = !!row.deleted_at;
          return (
            <Card
              key={row.id}
              component="li"
              withBorder
              padding="md"
              data-deleted={deleted || undefined}
            >
              <div className={deleted ? classes.deleted : undefined}>{renderCard(row)}</div>
              {actionColumn && (
                <Group justify="flex-end" mt="sm">
                  {actionColumn.cell(row)}
                </Group>
              )}
            </Card>
          );
        })}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        {searchable && <SearchInput value={list.searchInput} onChange={list.setSearch} />}
        {!isDesktop && sortable.length > 0 && (
          // Cards have no headers to click: phones choose the order here.
          <NativeSelect
            aria-label={t('list.sort')}
            w={{ base: '100%', xs: 260 }}
            value={`${state.orderBy}:${state.direction}`}
            onChange={(event) => {
              const [key = 'id', direction] = event.currentTarget.value.split(':');
              list.setSort(key, direction === 'asc' ? 'asc' : 'desc');
            }}
            data={sortable.flatMap((column) => [
              {
                value: `${column.sortKey}:asc`,
                label: t('list.ascending', { column: column.header }),
              },
              {
                value: `${column.sortKey}:desc`,
                label: t('list.descending', { column: column.header }),
              },
            ])}
          />
        )}
      </Group>

      <Box pos="relative" aria-busy={query.isFetching}>
        <LoadingOverlay visible={query.isPlaceholderData && query.isFetching} zIndex={5} />
        {content}
      </Box>

      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text size="sm" aria-live="polite">
            {summary &&
              t('list.range', {
                from: formatCount(summary.from, language),
                to: formatCount(summary.to, language),
                total,
              })}
          </Text>
          {summary?.kind === 'at_least' && (
            <Text size="xs" c="dimmed">
              {t('list.tooMany', { total: formatCount(summary.total, language) })}
            </Text>
          )}
        </Stack>
        <Group gap="sm" wrap="wrap">
          <NativeSelect
            aria-label={t('list.pageSize')}
            size="xs"
            w={80}
            data={PAGE_SIZES.map(String)}
            value={String(state.limit)}
            onChange={(event) => list.setLimit(Number(event.currentTarget.value))}
          />
          <Box component="nav" aria-label={t('list.pagination')}>
            <Pagination
              size="sm"
              // The page asked for is offered even before its answer tells the new count.
              total={Math.max(summary?.pages ?? 1, state.page)}
              value={state.page}
              disabled={!summary}
              onChange={list.setPage}
              siblings={isDesktop ? 1 : 0}
              getItemProps={(page) => ({
                'aria-label': t('list.page', { page }),
                'aria-current': page === state.page ? 'page' : undefined,
              })}
              getControlProps={(control) => ({
                'aria-label': t(
                  control === 'previous'
                    ? 'list.previousPage'
                    : control === 'next'
                      ? 'list.nextPage'
                      : control === 'first'
                        ? 'list.firstPage'
                        : 'list.lastPage',
                ),
              })}
            />
          </Box>
        </Group>
      </Group>
    </Stack>
  );
}
