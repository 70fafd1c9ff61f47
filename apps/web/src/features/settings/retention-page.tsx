import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  NumberInput,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/query-keys';
import { Link } from 'react-router';
import type { RetentionPreview, RetentionRun, RetentionValue } from '@portal/shared';
import { confirmAction } from '../../components/confirm';
import { SettingsForm } from '../../components/settings-form';
import { api } from '../../lib/api-client';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { SettingScreen } from './setting-screen';
import { useSettingSave } from './use-setting-save';

const PREVIEW_KEY = queryKeys.retentionPreview();
const LATEST_KEY = queryKeys.retentionLatest();

/** The refusals the retention endpoints name (ADR 059), in the reader's language. */
type RefusalKey = 'retention.notSet' | 'retention.locked' | 'retention.running';

function refusalOf(status: string | null | undefined): RefusalKey | null {
  if (status === 'retention_not_set') return 'retention.notSet';
  if (status === 'study_locked') return 'retention.locked';
  if (status === 'retention_running') return 'retention.running';
  return null;
}

function refusalKey(error: unknown): RefusalKey | ReturnType<typeof commonErrorKey> {
  return (isApiError(error) ? refusalOf(error.status) : null) ?? commonErrorKey(error);
}

function YearsForm({
  initial,
  initialVersion,
}: {
  initial: RetentionValue;
  initialVersion: number;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [years, setYears] = useState<number | ''>(initial.years ?? '');
  const [error, setError] = useState<string | null>(null);
  const { save, saving } = useSettingSave('retention', initialVersion, {
    setServerErrors: (fields) => setError(fields.years ?? Object.values(fields)[0] ?? null),
    onSaved: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: PREVIEW_KEY });
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    save({ years: years === '' ? null : years });
  };

  return (
    <SettingsForm onSubmit={submit} saving={saving} maw={720} hint={t('retention.hint')}>
      <NumberInput
        label={t('retention.years')}
        description={t('retention.yearsHint')}
        min={1}
        max={100}
        allowDecimal={false}
        allowNegative={false}
        value={years}
        onChange={(value) => setYears(typeof value === 'number' ? value : '')}
        error={error}
        maw={240}
      />
    </SettingsForm>
  );
}

function RunProgress({ run }: { run: RetentionRun }) {
  const { t } = useTranslation();
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 100;
  return (
    <Stack gap={4}>
      <Text size="sm" role="status">
        {t(`retention.status.${run.status}`, { done: run.done, total: run.total })}
      </Text>
      {(run.status === 'running' || run.status === 'queued') && (
        <Progress value={percent} aria-label={t('retention.progress')} />
      )}
      {run.error && (
        <Text size="sm" c="red">
          {t(refusalOf(run.error) ?? 'common.unexpectedError')}
        </Text>
      )}
    </Stack>
  );
}

function DryRun() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const preview = useQuery({
    queryKey: PREVIEW_KEY,
    queryFn: ({ signal }) =>
      api.request<RetentionPreview>('/retention/preview?limit=100', { signal }),
    retry: false,
  });
  const latest = useQuery({
    queryKey: LATEST_KEY,
    queryFn: ({ signal }) =>
      api.request<{ run: RetentionRun | null }>('/retention/runs/latest', { signal }),
    // Progress while a run is queued or going.
    refetchInterval: (query) => {
      const status = query.state.data?.run?.status;
      return status === 'queued' || status === 'running' ? 1000 : false;
    },
  });
  const run = useMutation({
    mutationFn: () =>
      api.post<{ status: 'accepted'; run: RetentionRun }>('/retention/run', { confirm: true }),
    onSuccess: (answer) => {
      queryClient.setQueryData(LATEST_KEY, { run: answer.run });
      notifySuccess(t('retention.started'));
    },
    onError: (error) => notifyError(t(refusalKey(error))),
  });
  const active = latest.data?.run?.status === 'queued' || latest.data?.run?.status === 'running';
  // A finished run changes who is due.
  const finishedRun = latest.data?.run?.status === 'done' ? latest.data.run.id : null;
  useEffect(() => {
    if (finishedRun !== null) void queryClient.invalidateQueries({ queryKey: PREVIEW_KEY });
  }, [finishedRun, queryClient]);

  const ask = (total: number) =>
    confirmAction({
      question: t('retention.confirmTitle', { count: total }),
      detail: t('retention.confirmDetail'),
      confirmLabel: t('retention.run'),
      cancelLabel: t('common.cancel'),
      danger: true,
      onConfirm: () => run.mutate(),
    });

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={720}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('retention.dryRun')}
        </Title>
        {preview.isPending && <Loader role="status" aria-label={t('app.loading')} />}
        {preview.isError && (
          <Alert
            color={
              isApiError(preview.error) && preview.error.status === 'retention_not_set'
                ? 'blue'
                : 'red'
            }
            variant="light"
          >
            {t(refusalKey(preview.error))}
          </Alert>
        )}
        {preview.data && (
          <>
            {preview.data.study_locked && (
              <Alert color="orange" variant="light">
                {t('retention.locked')}
              </Alert>
            )}
            <Text size="sm">
              {t('retention.due', {
                count: preview.data.total,
                date: dayjs(preview.data.cutoff).format('DD.MM.YYYY'),
              })}
            </Text>
            {preview.data.data.length > 0 && (
              <Table striped withTableBorder aria-label={t('retention.dryRun')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('retention.patient')}</Table.Th>
                    <Table.Th>{t('retention.projectNumber')}</Table.Th>
                    <Table.Th>{t('retention.unit')}</Table.Th>
                    <Table.Th>{t('retention.endedAt')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.data.data.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/patients/${row.id}`}>
                          #{row.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{row.project_number ?? '—'}</Table.Td>
                      <Table.Td>{row.unit_name}</Table.Td>
                      <Table.Td>{dayjs(row.ended_at).format('DD.MM.YYYY')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group justify="flex-end">
              <Button
                color="red"
                disabled={preview.data.total === 0 || preview.data.study_locked || active}
                loading={run.isPending}
                onClick={() => ask(preview.data.total)}
              >
                {t('retention.run')}
              </Button>
            </Group>
          </>
        )}
        {latest.data?.run && <RunProgress run={latest.data.run} />}
      </Stack>
    </Paper>
  );
}

/** Settings › Data retention: the years, the dry run, and the run with its progress (ADR 059). */
export function RetentionSettingsPage() {
  const { t } = useTranslation();
  return (
    <SettingScreen
      name="retention"
      title={t('nav.settingsRetention')}
      form={(initial, version) => (
        <Stack gap="lg">
          <YearsForm initial={initial} initialVersion={version} />
          <DryRun />
        </Stack>
      )}
    />
  );
}
