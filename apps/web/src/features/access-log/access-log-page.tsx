import { Alert, Anchor, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SEARCH_DEBOUNCE_MS, formatDateTime } from '@portal/shared';
import type { AccessLogEntry } from '@portal/shared';
import { ENTITY } from '../../api/query-keys';
import { DateRangeFilter } from '../../components/date-range-filter';
import {
  ALL_TIME,
  dateChoiceFromUrl,
  dateRangeFor,
  setDateChoiceInUrl,
} from '../../components/date-range';
import type { DateRangeChoice } from '../../components/date-range';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { ListFilterBar } from '../../components/list-filter-bar';
import { PageHeader } from '../../components/page-header';
import { useListQuery } from '../../components/use-list-query';
import { isApiError } from '../../lib/api';

/** The address's names of the filters: the API's own, so a link reads as the request it makes. */
const PATIENT = 'patientIds';
const USER = 'userIds';

function idFrom(value: string | null): number | null {
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * An id filter typed by hand: what is typed shows at once, the address (and so the list) follows
 * after the search debounce, so that typing "123" is one step of history, not three. When the
 * address changes by itself (Back, a click on a user's name, "Wyczyść filtry"), the field shows it.
 */
function IdFilter({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: number | null;
  onCommit: (id: number | null) => void;
}) {
  const [typed, setTyped] = useState<number | string>(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setTyped(value ?? '');
  }
  const commit = useDebouncedCallback(onCommit, SEARCH_DEBOUNCE_MS);
  return (
    <NumberInput
      label={label}
      value={typed}
      onChange={(next) => {
        setTyped(next);
        commit(typeof next === 'number' ? next : null);
      }}
      min={1}
      allowDecimal={false}
      allowNegative={false}
      hideControls
      w={{ base: '100%', xs: 160 }}
    />
  );
}

/**
 * /access_log, "Dziennik dostępu" (ADR 052): who saw which patients' data, for administrators
 * and the data protection officer. Filtered by patient, user and date range. The filters live in
 * the address beside the page and its key (`?patientIds=4&userIds=2&range=last7&page=2&after=…`):
 * a reload or a shared link shows the same filtered page, Back the previous filter; the card's
 * "who saw this patient's data" links here with `?patientIds=`.
 */
export function AccessLogPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const patientId = idFrom(searchParams.get(PATIENT));
  const userId = idFrom(searchParams.get(USER));
  const dateChoice = dateChoiceFromUrl(searchParams);
  const range = dateRangeFor(dateChoice, new Date());
  const list = useListQuery<AccessLogEntry>({
    entity: ENTITY.accessLog,
    path: '/access_log',
    // Far pages by key, the page in the URL (ADR 022, 052).
    keyset: true,
    params: {
      patientIds: patientId ?? undefined,
      userIds: userId ?? undefined,
      from: range.from_date,
      to: range.to_date,
    },
  });
  const forbidden = isApiError(list.query.error) && list.query.error.httpStatus === 403;
  const filtered = patientId !== null || userId !== null || dateChoice.option !== ALL_TIME.option;

  /**
   * A new filter is a new step of history (Back returns to the previous one) and starts at page
   * 1: the page and its key go in the same change (two changes in one event would keep only the
   * last). The page size stays.
   */
  function filter(change: (params: URLSearchParams) => void) {
    setSearchParams((previous) => {
      const params = new URLSearchParams(previous);
      for (const name of ['page', 'after', 'before']) params.delete(name);
      change(params);
      return params;
    });
  }
  const filterId = (name: string, id: number | null) =>
    filter((params) => (id === null ? params.delete(name) : params.set(name, String(id))));

  const userName = (entry: AccessLogEntry) =>
    entry.user.surname
      ? `${entry.user.surname} ${entry.user.firstname ?? ''}`.trim()
      : entry.user.login;
  const userCell = (entry: AccessLogEntry) => (
    <>
      <Anchor
        component="button"
        type="button"
        fz="sm"
        onClick={() => filterId(USER, entry.user.id)}
        aria-label={t('accessLog.filterUser', { login: entry.user.login })}
      >
        {userName(entry)}
      </Anchor>
      <Text size="xs" c="dimmed">
        {entry.user.login}
      </Text>
    </>
  );
  const patientsCell = (entry: AccessLogEntry) => (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {entry.patient_ids.join(', ')}
    </Text>
  );

  const columns: Column<AccessLogEntry>[] = [
    {
      key: 'at',
      header: t('accessLog.at'),
      width: 150,
      cell: (e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</span>,
    },
    { key: 'user', header: t('accessLog.user'), cell: userCell },
    { key: 'kind', header: t('accessLog.kind'), cell: (e) => t(`accessLog.kinds.${e.kind}`) },
    { key: 'patients', header: t('accessLog.patients'), cell: patientsCell },
    { key: 'address', header: t('accessLog.address'), cell: (e) => e.address },
  ];

  if (forbidden) {
    return (
      <>
        <PageHeader title={t('accessLog.title')} />
        <Alert color="yellow" role="alert">
          {t('accessLog.forbidden')}
        </Alert>
      </>
    );
  }

  const renderCard = (entry: AccessLogEntry) => (
    <>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {t(`accessLog.kinds.${entry.kind}`)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.at)}
        </Text>
      </Group>
      <Text size="sm">
        {t('accessLog.user')}: {userName(entry)} ({entry.user.login})
      </Text>
      <Text size="sm">
        {t('accessLog.patients')}: {entry.patient_ids.join(', ')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('accessLog.address')}: {entry.address}
      </Text>
    </>
  );

  return (
    <>
      <PageHeader title={t('accessLog.title')} />
      <Stack gap="md">
        <ListFilterBar
          label={t('accessLog.filters')}
          clearLabel={t('accessLog.clearFilters')}
          filtered={filtered}
          onClear={() =>
            filter((params) => {
              params.delete(PATIENT);
              params.delete(USER);
              setDateChoiceInUrl(params, ALL_TIME);
            })
          }
        >
          <IdFilter
            label={t('accessLog.patientId')}
            value={patientId}
            onCommit={(id) => filterId(PATIENT, id)}
          />
          <IdFilter
            label={t('accessLog.userId')}
            value={userId}
            onCommit={(id) => filterId(USER, id)}
          />
          <DateRangeFilter
            value={dateChoice}
            onChange={(choice: DateRangeChoice) =>
              filter((params) => setDateChoiceInUrl(params, choice))
            }
          />
        </ListFilterBar>
        <DataTable
          list={list}
          columns={columns}
          renderCard={renderCard}
          label={t('accessLog.title')}
          searchable={false}
        />
      </Stack>
    </>
  );
}
