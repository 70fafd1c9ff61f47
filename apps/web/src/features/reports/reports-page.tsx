import { Button, Group, MultiSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REPORT_COLUMNS, reportColumnsInOrder } from '@portal/shared';
import type { ReportColumn } from '@portal/shared';
import { PageHeader } from '../../components/page-header';
import { notifyError } from '../../lib/notify';
import { translateCodes } from '../../lib/use-zod-form';
import { columnsError } from './report-columns';
import { useDownloadOdm, useDownloadReport } from './reports-api';

/**
 * "Generuj raport" (docs/product-rules.md "Reports"): the columns, data.xlsx, and the ODM export.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const [columns, setColumns] = useState<ReportColumn[]>([]);
  // The message shows once a download was asked for, then follows the choice.
  const [tried, setTried] = useState(false);
  const report = useDownloadReport();
  const odm = useDownloadOdm();
  const problem = columnsError(columns);

  const download = () => {
    setTried(true);
    if (problem) return;
    report.mutate(reportColumnsInOrder(columns), {
      onError: () => notifyError(t('reports.fail')),
    });
  };

  return (
    <>
      <PageHeader title={t('reports.title')} />
      <Stack gap="lg" maw={720}>
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <MultiSelect
              label={t('reports.columnsLabel')}
              description={t('reports.columnsHint')}
              placeholder={columns.length === 0 ? t('reports.choose') : undefined}
              data={REPORT_COLUMNS.map((column) => ({
                value: column,
                label: t(`reports.columns.${column}`),
              }))}
              value={columns}
              onChange={(value) => setColumns(reportColumnsInOrder(value))}
              error={tried && problem ? translateCodes(t, { columns: problem }).columns : undefined}
              required
              clearable
              searchable
              comboboxProps={{ withinPortal: true }}
            />
            <Group gap="sm" wrap="wrap">
              <Button onClick={download} loading={report.isPending} aria-busy={report.isPending}>
                {t('reports.download')}
              </Button>
              <Button
                variant="default"
                onClick={() => setColumns([...REPORT_COLUMNS])}
                disabled={columns.length === REPORT_COLUMNS.length}
              >
                {t('reports.all')}
              </Button>
            </Group>
            {report.isPending && (
              <Text size="sm" c="dimmed" role="status">
                {t('reports.busy')}
              </Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('reports.odmTitle')}
            </Title>
            <Text size="sm">{t('reports.odmHint')}</Text>
            <Group>
              <Button
                variant="light"
                onClick={() =>
                  odm.mutate(undefined, { onError: () => notifyError(t('reports.fail')) })
                }
                loading={odm.isPending}
                aria-busy={odm.isPending}
              >
                {t('reports.odm')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
