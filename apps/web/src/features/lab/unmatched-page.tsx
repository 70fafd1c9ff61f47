import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS, UNMATCHED_STATUSES, formatDateTime, formatDay } from '@portal/shared';
import type { MatchPreview, ReplacedValue, UnmatchedResult } from '@portal/shared';
import { ComboboxMessage } from '../../components/combobox-message';
import { DataTable } from '../../components/data-table';
import type { Column } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { isApiError } from '../../lib/api';
import { commonErrorKey, isStaleVersion } from '../../lib/api-errors';
import { useAnalyteName } from '../../lib/lab-errors';
import { formatMeasured } from '../../lib/measured-value';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useMatchPreview, useProbeSearch, useResolveUnmatched, useUnmatchedList } from './lab-api';

type Status = UnmatchedResult['status'];

/** After a refusal: resolved by someone else, a stale version, or another error. */
function useRefusal() {
  const { t } = useTranslation();
  return (failure: unknown, onClose: () => void): boolean => {
    if (isApiError(failure) && failure.status === 'already_resolved') {
      notifyError(t('unmatched.alreadyResolved'));
      onClose();
      return true;
    }
    if (isStaleVersion(failure)) {
      notifyError(t('unmatched.changed'));
      onClose();
      return true;
    }
    return false;
  };
}

function MatchForm({ row, onClose }: { row: UnmatchedResult; onClose: () => void }) {
  const { t } = useTranslation();
  const { match } = useResolveUnmatched();
  const refusal = useRefusal();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const [error, setError] = useState<string | undefined>();
  // Once a sample is chosen the box shows its label: that is no new search.
  const found = useProbeSearch(chosen && term === chosen.label ? '' : term);
  const answered = (found.data ?? []).map((probe) => ({
    value: String(probe.id),
    label: `${probe.code} — ${probe.patient.surname} ${probe.patient.firstname} (${formatDay(probe.date_of_sample)})`,
  }));
  // The chosen sample stays an option while other searches come and go.
  const options =
    chosen && !answered.some((option) => option.value === chosen.value)
      ? [chosen, ...answered]
      : answered;
  const probeId = chosen?.value ?? null;
  const searching = search.trim() !== term || found.isFetching;
  const preview = useMatchPreview(row.id, probeId === null ? null : Number(probeId));
  // Asked once the sample holds a value the result would replace (issue 21): the server refuses
  // to overwrite it without replace: true.
  const [confirming, setConfirming] = useState(false);
  const replaces = preview.data?.replaces ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!probeId) {
      setError(t('unmatched.required'));
      return;
    }
    if (!preview.data) return;
    if (replaces.length > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    match.mutate(
      { row, probeId: Number(probeId), replace: confirming },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.status === 'would_replace') {
            // Someone stored a value on the sample meanwhile: show it and ask.
            void preview.refetch();
            setConfirming(true);
            notifyError(t('unmatched.replacedMeanwhile'));
            return;
          }
          if (refusal(failure, onClose)) return;
          if (isApiError(failure) && failure.httpStatus === 422) {
            setError(t('unmatched.notTested'));
          } else if (isApiError(failure) && failure.httpStatus === 404) {
            setError(t('common.notFound'));
          }
          notifyError(t(commonErrorKey(failure)));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={match.isPending}>
      <Stack gap="sm">
        <Text size="sm">{t('unmatched.matchIntro', { code: row.probe_code })}</Text>
        <Select
          label={t('unmatched.probe')}
          description={t('unmatched.probeHint')}
          placeholder={t('unmatched.probePlaceholder')}
          data={options}
          value={probeId}
          onChange={(value) => {
            setChosen(options.find((option) => option.value === value) ?? null);
            setError(undefined);
            setConfirming(false);
          }}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          // The server already searched; the dropdown shows its answer as it is.
          filter={({ options: all }) => all}
          nothingFoundMessage={
            <ComboboxMessage>
              {t(
                searching
                  ? 'unmatched.searching'
                  : term
                    ? 'unmatched.noProbe'
                    : 'unmatched.typeCode',
              )}
            </ComboboxMessage>
          }
          error={error}
          required
          withAsterisk
          data-autofocus
        />
        {probeId !== null &&
          (preview.data ? (
            <MatchComparison row={row} preview={preview.data} />
          ) : preview.isFetching ? (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm">{t('unmatched.previewLoading')}</Text>
            </Group>
          ) : null)}
        {confirming && replaces.length > 0 ? (
          <Alert color="orange" variant="light" role="alert">
            <Text size="sm" fw={600}>
              {t('unmatched.confirmReplaceQuestion')}
            </Text>
            <Group justify="flex-end" gap="sm" mt="sm">
              <Button
                variant="default"
                onClick={() => setConfirming(false)}
                disabled={match.isPending}
              >
                {t('common.cancel')}
              </Button>
              <Button type="submit" color="orange" loading={match.isPending}>
                {t('unmatched.confirmReplace')}
              </Button>
            </Group>
          </Alert>
        ) : (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={match.isPending}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={match.isPending}
              disabled={probeId !== null && !preview.data}
            >
              {t('unmatched.match')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/**
 * The laboratory's patient beside the chosen sample's (where they differ, said in words as well
 * as colour) and the sample's values the result would replace.
 */
function MatchComparison({ row, preview }: { row: UnmatchedResult; preview: MatchPreview }) {
  const { t, i18n } = useTranslation();
  const analyteName = useAnalyteName();
  const missing = t('unmatched.notSent');
  const sexText = (sex: string | null) =>
    sex ? t(`unmatched.sexes.${sex}`, { defaultValue: sex }) : missing;
  const nameText = (patient: MatchPreview['lab_patient']) =>
    [patient.firstname, patient.surname].filter(Boolean).join(' ') || missing;
  const rows: { key: 'name' | 'sex' | 'birth_date'; label: string; lab: string; own: string }[] = [
    {
      key: 'name',
      label: t('unmatched.name'),
      lab: nameText(preview.lab_patient),
      own: nameText(preview.sample_patient),
    },
    {
      key: 'sex',
      label: t('unmatched.sex'),
      lab: sexText(preview.lab_patient.sex),
      own: sexText(preview.sample_patient.sex),
    },
    {
      key: 'birth_date',
      label: t('unmatched.birthDate'),
      lab: preview.lab_patient.birth_date ? formatDay(preview.lab_patient.birth_date) : missing,
      own: preview.sample_patient.birth_date
        ? formatDay(preview.sample_patient.birth_date)
        : missing,
    },
  ];
  const valueText = (value: ReplacedValue, which: 'current' | 'incoming') => {
    const unit = value.analyte === 'hours' ? 'h' : row.unit;
    return `${formatMeasured(value[which], i18n.language)}${unit ? ` ${unit}` : ''}`;
  };
  return (
    <Stack gap="xs" data-testid="match-comparison">
      <Table withTableBorder striped={false} fz="sm" layout="fixed">
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
          {t('unmatched.sideBySide')}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('unmatched.field')}</Table.Th>
            <Table.Th scope="col">{t('unmatched.labPatient')}</Table.Th>
            <Table.Th scope="col">{t('unmatched.samplePatient')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((line) => {
            const differs = preview.mismatches.includes(line.key);
            return (
              <Table.Tr
                key={line.key}
                data-mismatch={differs || undefined}
                bg={differs ? 'var(--mantine-color-red-light)' : undefined}
              >
                <Table.Th scope="row" fw={500}>
                  {line.label}
                  {differs && (
                    <Badge color="red" variant="filled" size="xs" ml={6}>
                      {t('unmatched.differs')}
                    </Badge>
                  )}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{line.lab}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{line.own}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {preview.mismatches.length > 0 && (
        <Alert color="red" variant="light" p="xs">
          <Text size="sm">{t('unmatched.mismatchWarning')}</Text>
        </Alert>
      )}
      {preview.replaces.length > 0 ? (
        <Table withTableBorder fz="sm" layout="fixed">
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
            {t('unmatched.replacesTitle')}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('unmatched.analyte')}</Table.Th>
              <Table.Th scope="col">{t('unmatched.current')}</Table.Th>
              <Table.Th scope="col">{t('unmatched.incoming')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.replaces.map((value) => (
              <Table.Tr key={value.analyte}>
                <Table.Th scope="row" fw={500}>
                  {analyteName(value.analyte)}
                </Table.Th>
                <Table.Td>{valueText(value, 'current')}</Table.Td>
                <Table.Td fw={600}>{valueText(value, 'incoming')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          {t('unmatched.nothingReplaced')}
        </Text>
      )}
    </Stack>
  );
}

function DiscardForm({ row, onClose }: { row: UnmatchedResult; onClose: () => void }) {
  const { t } = useTranslation();
  const { discard } = useResolveUnmatched();
  const refusal = useRefusal();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setError(t('unmatched.required'));
      return;
    }
    discard.mutate(
      { row, reason: reason.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (failure) => {
          if (refusal(failure, onClose)) return;
          notifyError(t(commonErrorKey(failure)));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={discard.isPending}>
      <Stack gap="sm">
        <Textarea
          label={t('unmatched.discardReason')}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setError(undefined);
          }}
          maxLength={1000}
          autosize
          minRows={3}
          error={error}
          required
          withAsterisk
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={discard.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color="red" loading={discard.isPending}>
            {t('unmatched.discard')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The laboratory's values as it sent them (segment fields or the import's row). */
function RawValues({ row }: { row: UnmatchedResult }) {
  const { t } = useTranslation();
  const entries = Object.entries(row.raw);
  if (entries.length === 0) return null;
  return (
    <details>
      <summary style={{ cursor: 'pointer' }}>
        <Text span size="sm">
          {t('unmatched.raw')}
        </Text>
      </summary>
      <Stack gap={2} mt={4}>
        {entries.map(([key, value]) => (
          <Text key={key} size="xs" style={{ overflowWrap: 'anywhere' }}>
            {key}: <Code>{typeof value === 'string' ? value : JSON.stringify(value)}</Code>
          </Text>
        ))}
      </Stack>
    </details>
  );
}

/**
 * /lab/unmatched, "Niedopasowane wyniki" (ADR 032): laboratory results that matched no sample, or
 * whose patient disagreed. An administrator attaches each to the right sample or discards it
 * with a reason; matched and discarded ones stay readable under their own tab.
 */
export function UnmatchedPage() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<Status>('open');
  const [matching, setMatching] = useState<UnmatchedResult | null>(null);
  const [discarding, setDiscarding] = useState<UnmatchedResult | null>(null);
  const list = useUnmatchedList(status);
  const analyteName = useAnalyteName();

  const valueText = (row: UnmatchedResult) =>
    row.value === null
      ? '-'
      : `${formatMeasured(row.value, i18n.language)}${row.unit ? ` ${row.unit}` : ''}`;
  const patientText = (row: UnmatchedResult) =>
    [
      row.patient_sex
        ? t(`unmatched.sexes.${row.patient_sex}`, { defaultValue: row.patient_sex })
        : null,
      row.patient_birth_date ? formatDay(row.patient_birth_date) : null,
    ]
      .filter(Boolean)
      .join(', ') || '-';
  const describe = (row: UnmatchedResult) =>
    t('unmatched.rowName', { code: row.probe_code, analyte: analyteName(row.analyte) });

  const stateCell = (row: UnmatchedResult) => {
    if (row.status === 'matched' && row.probe_id !== null) {
      return (
        <Stack gap={2}>
          <Anchor component={Link} to={`/probes/${row.probe_id}`} size="sm">
            {t('unmatched.openProbe')}
          </Anchor>
          <Text size="xs" c="dimmed">
            {formatDateTime(row.resolved_at)}
          </Text>
        </Stack>
      );
    }
    if (row.status === 'discarded') {
      return (
        <Stack gap={2}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {row.discard_reason}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(row.resolved_at)}
          </Text>
        </Stack>
      );
    }
    return null;
  };
  const actions = (row: UnmatchedResult) =>
    row.status === 'open' ? (
      <Group gap="xs" wrap="nowrap">
        {/* A test the study does not know has no place on a sample (ADR 033): discard only. */}
        {row.reason !== 'unknown_analyte' && (
          <Button
            size="xs"
            variant="light"
            onClick={() => setMatching(row)}
            aria-label={t('unmatched.matchFor', { name: describe(row) })}
          >
            {t('unmatched.match')}
          </Button>
        )}
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => setDiscarding(row)}
          aria-label={t('unmatched.discardFor', { name: describe(row) })}
        >
          {t('unmatched.discard')}
        </Button>
      </Group>
    ) : (
      stateCell(row)
    );

  const columns: Column<UnmatchedResult>[] = [
    {
      key: 'created',
      header: t('unmatched.createdAt'),
      sortKey: 'created_at',
      cell: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</span>,
    },
    {
      key: 'code',
      header: t('unmatched.code'),
      cell: (row) => (
        <Text size="sm" ff="monospace">
          {row.probe_code}
        </Text>
      ),
    },
    { key: 'analyte', header: t('unmatched.analyte'), cell: (row) => analyteName(row.analyte) },
    {
      key: 'value',
      header: t('unmatched.value'),
      cell: (row) => <span style={{ whiteSpace: 'nowrap' }}>{valueText(row)}</span>,
    },
    { key: 'range', header: t('unmatched.labRange'), cell: (row) => row.lab_range ?? '-' },
    { key: 'patient', header: t('unmatched.patient'), cell: patientText },
    {
      key: 'reason',
      header: t('unmatched.reason'),
      cell: (row) => (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t(`unmatched.reasons.${row.reason}`)}
          </Text>
          <RawValues row={row} />
        </Stack>
      ),
    },
    {
      key: 'action',
      header: status === 'open' ? t('common.operations') : t(`unmatched.resolution.${status}`),
      actions: true,
      cell: actions,
    },
  ];

  const renderCard = (row: UnmatchedResult) => (
    <>
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Text fw={600} size="sm" ff="monospace">
          {row.probe_code}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(row.created_at)}
        </Text>
      </Group>
      <Text size="sm">
        {analyteName(row.analyte)}: {valueText(row)}
        {row.lab_range ? ` (${t('unmatched.labRange')}: ${row.lab_range})` : ''}
      </Text>
      <Text size="sm">
        {t('unmatched.patient')}: {patientText(row)}
      </Text>
      <Text size="sm" fw={600} my={4}>
        {t(`unmatched.reasons.${row.reason}`)}
      </Text>
      <RawValues row={row} />
    </>
  );

  const empty =
    !list.query.isPending && !list.query.isError && list.rows.length === 0 && list.state.page === 1;

  return (
    <>
      <PageHeader title={t('unmatched.title')} />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('unmatched.intro')}
        </Text>
        <Stack gap={4} component="section" aria-label={t('unmatched.filters')}>
          <Text size="sm" fw={500} id="unmatched-status-label">
            {t('unmatched.status')}
          </Text>
          <SegmentedControl
            aria-labelledby="unmatched-status-label"
            value={status}
            onChange={(value) => {
              setStatus(value);
              list.setPage(1);
            }}
            data={UNMATCHED_STATUSES.map((value) => ({
              value,
              label: t(`unmatched.statuses.${value}`),
            }))}
            style={{ alignSelf: 'flex-start' }}
          />
        </Stack>
        {empty ? (
          <Text c="dimmed" ta="center" py="xl">
            {t(`unmatched.empty.${status}`)}
          </Text>
        ) : (
          <DataTable
            list={list}
            columns={columns}
            renderCard={renderCard}
            label={t('unmatched.title')}
            searchable={false}
          />
        )}
      </Stack>
      <Modal
        opened={matching !== null}
        onClose={() => setMatching(null)}
        title={t('unmatched.matchTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {matching && <MatchForm row={matching} onClose={() => setMatching(null)} />}
      </Modal>
      <Modal
        opened={discarding !== null}
        onClose={() => setDiscarding(null)}
        title={t('unmatched.discardTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {discarding && <DiscardForm row={discarding} onClose={() => setDiscarding(null)} />}
      </Modal>
    </>
  );
}
