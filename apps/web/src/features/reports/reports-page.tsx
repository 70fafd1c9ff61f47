import { Button, Group, MultiSelect, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REPORT_COLUMNS, reportColumnsInOrder } from '@portal/shared';
import type { ReportColumn } from '@portal/shared';
import { DownloadButton } from '../../components/download-button';
import { PageHeader } from '../../components/page-header';
import { useDownload } from '../../lib/download';
import { useCan } from '../../lib/permissions';
import { translateCodes } from '../../lib/use-zod-form';
import { columnsError } from './report-columns';
import { fhirFile, odmFile, reportFile } from './reports-api';

/**
 * "Generuj raport" (docs/product-rules.md "Reports"): the columns, data.xlsx, the ODM export,
 * the FHIR export, and whether they are pseudonymised (ADR 054, 055). Without
 * `exports.identified` only the pseudonymised exports are offered.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const [columns, setColumns] = useState<ReportColumn[]>([]);
  // The message shows once a download was asked for, then follows the choice.
  const [tried, setTried] = useState(false);
  const fail = () => t('reports.fail');
  const report = useDownload(reportFile, fail);
  const odm = useDownload(odmFile, fail);
  const fhir = useDownload(fhirFile, fail);
  const can = useCan();
  const mayIdentify = can('exports.identified');
  const [pseudonymisedChoice, setPseudonymised] = useState(false);
  const pseudonymised = pseudonymisedChoice || !mayIdentify;
  const [fhirIdentified, setFhirIdentified] = useState(false);
  const problem = columnsError(columns);

  const download = () => {
    setTried(true);
    if (problem) return;
    report.start({ columns: reportColumnsInOrder(columns), pseudonymised });
  };

  return (
    <>
      <PageHeader title={t('reports.title')} />
      <Stack gap="lg" maw={720}>
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
          <Switch
            label={t('reports.pseudonymised')}
            description={
              mayIdentify ? t('reports.pseudonymisedHint') : t('reports.pseudonymisedOnly')
            }
            checked={pseudonymised}
            disabled={!mayIdentify}
            onChange={(event) => setPseudonymised(event.currentTarget.checked)}
          />
        </Paper>
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
              <Button onClick={download} loading={report.busy()} aria-busy={report.busy()}>
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
            {report.busy() && (
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
              <DownloadButton download={odm} variables={pseudonymised} variant="light">
                {t('reports.odm')}
              </DownloadButton>
            </Group>
          </Stack>
        </Paper>
        {can('exports.fhir') && (
          <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
            <Stack gap="sm">
              <Title order={2} size="h4">
                {t('reports.fhirTitle')}
              </Title>
              <Text size="sm">{t('reports.fhirHint')}</Text>
              {mayIdentify && (
                <Switch
                  label={t('reports.fhirIdentified')}
                  checked={fhirIdentified}
                  onChange={(event) => setFhirIdentified(event.currentTarget.checked)}
                />
              )}
              <Group>
                <DownloadButton
                  download={fhir}
                  variables={!(mayIdentify && fhirIdentified)}
                  variant="light"
                >
                  {t('reports.fhir')}
                </DownloadButton>
              </Group>
            </Stack>
          </Paper>
        )}
      </Stack>
    </>
  );
}
