import { Alert, Button, Card, Center, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { ImportBatch } from '@portal/shared';
import { useIsDesktop } from '../../components/use-is-desktop';
import { useCountsText } from './import-counts';
import { formatFileSize } from './import-files';
import { useImportBatches } from './imports-api';

/** The batches under the form, newest first; a flushed one can be restored. */
export function ImportBatches({
  busy,
  onRestore,
}: {
  busy: boolean;
  onRestore: (batch: ImportBatch) => void;
}) {
  const { t, i18n } = useTranslation();
  const isDesktop = useIsDesktop();
  const batches = useImportBatches();
  const countsText = useCountsText();
  const title = t('imports.batches.title');

  const files = (batch: ImportBatch) =>
    batch.files
      .map((file) => `${file.name} (${formatFileSize(file.size, i18n.language)})`)
      .join(', ');
  // Plain text, not a badge: the flush's date and time must show whole in a narrow column.
  const state = (batch: ImportBatch) => (
    <Text size="sm" fw={batch.flushed_at ? 400 : 600}>
      {batch.flushed_at
        ? t('imports.batches.flushed', { date: formatDateTime(batch.flushed_at) })
        : t('imports.batches.active')}
    </Text>
  );
  const restore = (batch: ImportBatch) =>
    batch.flushed_at ? (
      <Button
        size="xs"
        variant="light"
        leftSection={<IconRestore size={16} aria-hidden />}
        disabled={busy}
        onClick={() => onRestore(batch)}
        aria-label={t('imports.batches.restoreLabel', { date: formatDateTime(batch.created_at) })}
      >
        {t('imports.batches.restore')}
      </Button>
    ) : null;

  let content;
  if (batches.isPending) {
    content = (
      <Center p="md">
        <Loader size="sm" role="status" aria-label={t('app.loading')} />
      </Center>
    );
  } else if (batches.isError) {
    content = <Alert color="red">{t('imports.batches.loadError')}</Alert>;
  } else if (batches.data.length === 0) {
    content = <Text c="dimmed">{t('imports.batches.empty')}</Text>;
  } else if (isDesktop) {
    content = (
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.batches.date')}</Table.Th>
              <Table.Th>{t('imports.batches.mode')}</Table.Th>
              <Table.Th>{t('imports.batches.files')}</Table.Th>
              <Table.Th>{t('imports.batches.counts')}</Table.Th>
              <Table.Th>{t('imports.batches.by')}</Table.Th>
              <Table.Th>{t('imports.batches.state')}</Table.Th>
              <Table.Th>{t('common.operations')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {batches.data.map((batch) => (
              <Table.Tr key={batch.id} data-flushed={batch.flushed_at ? true : undefined}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(batch.created_at)}
                </Table.Td>
                <Table.Td>{t(`imports.modes.${batch.mode}`)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>{files(batch)}</Table.Td>
                <Table.Td>{countsText(batch.counts)}</Table.Td>
                <Table.Td>{batch.created_by ?? '-'}</Table.Td>
                <Table.Td>{state(batch)}</Table.Td>
                <Table.Td>{restore(batch)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  } else {
    content = (
      <Stack gap="sm" role="list" aria-label={title}>
        {batches.data.map((batch) => (
          <Card key={batch.id} withBorder radius="md" padding="sm" role="listitem">
            <Stack gap={4}>
              <Text fw={600}>
                {formatDateTime(batch.created_at)} · {t(`imports.modes.${batch.mode}`)}
              </Text>
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                {t('imports.batches.files')}: {files(batch)}
              </Text>
              <Text size="sm">
                {t('imports.batches.counts')}: {countsText(batch.counts)}
              </Text>
              <Text size="sm">
                {t('imports.batches.by')}: {batch.created_by ?? '-'}
              </Text>
              <div>{state(batch)}</div>
              {restore(batch)}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="import-batches-title">
      <Title order={2} size="h3" id="import-batches-title">
        {title}
      </Title>
      {content}
    </Stack>
  );
}
