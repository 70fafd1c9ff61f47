import { Anchor, Card, Center, Group, Loader, Stack, Table, Text, Alert } from '@mantine/core';
import { IconFileTypePdf, IconFileText } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/shared';
import type { PanelDocument } from '@portal/shared';
import { downloadFile } from '../api/files';
import { notifyError } from '../lib/notify';
import { DeleteIconButton } from './delete-icon-button';
import { useIsDesktop } from './use-is-desktop';

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A panel's documents: name (a click downloads it under its original name), date added and
 * size; a table on desktops, cards on phones. `onDelete` adds a bin to each (administrators).
 */
export function PanelDocumentList({
  query,
  label,
  onDelete,
}: {
  query: UseQueryResult<PanelDocument[]>;
  /** The list's accessible name. */
  label: string;
  onDelete?: (document: PanelDocument) => void;
}) {
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {t('list.loadError')}
      </Alert>
    );
  }
  if (query.data.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('documents.empty')}
      </Text>
    );
  }

  const name = (document: PanelDocument) => {
    const Icon = document.original_name.toLowerCase().endsWith('.pdf')
      ? IconFileTypePdf
      : IconFileText;
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Icon size={18} stroke={1.6} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="left"
          style={{ overflowWrap: 'anywhere' }}
          aria-label={t('card.files.download', { name: document.original_name })}
          onClick={() =>
            void downloadFile(document).catch(() => notifyError(t('card.files.downloadError')))
          }
        >
          {document.original_name}
        </Anchor>
      </Group>
    );
  };
  const remove = (document: PanelDocument) =>
    onDelete ? (
      <DeleteIconButton
        tooltip={t('documents.delete')}
        label={`${t('documents.delete')}: ${document.original_name}`}
        onClick={() => onDelete(document)}
      />
    ) : null;

  if (isDesktop) {
    return (
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('card.files.fileName')}</Table.Th>
              <Table.Th w={170}>{t('card.files.addedAt')}</Table.Th>
              <Table.Th w={110}>{t('documents.size')}</Table.Th>
              {onDelete && <Table.Th w={100}>{t('common.operations')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.map((document) => (
              <Table.Tr key={document.id}>
                <Table.Td>{name(document)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(document.created_at)}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {sizeText(document.size_bytes)}
                </Table.Td>
                {onDelete && <Table.Td>{remove(document)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <Stack component="ul" gap="sm" aria-label={label} style={{ listStyle: 'none', padding: 0 }}>
      {query.data.map((document) => (
        <Card key={document.id} component="li" withBorder padding="md">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              {name(document)}
              <Text size="xs" c="dimmed" mt={4}>
                {t('card.files.addedAt')}: {formatDateTime(document.created_at)} ·{' '}
                {sizeText(document.size_bytes)}
              </Text>
            </div>
            {remove(document)}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
