import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconMessageQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitoredRecordType } from '@portal/shared';
import { useCan } from '../../lib/permissions';
import { useRecordQueries } from './monitoring-api';
import type { QueryScope } from './monitoring-api';
import { OpenQueryDialog } from './open-query-dialog';
import { QueryThread } from './query-thread';

/**
 * "Zapytania" of a record (a visit card, a sample's page) or of a patient (the card's tab, every
 * record of the patient): unresolved ones first, each with its thread; a monitor opens a new
 * one on `record`. Nothing for a user who may not read queries.
 */
export function RecordQueries({
  scope,
  record,
  openCount,
  bare = false,
}: {
  scope: QueryScope;
  /** The record a new query is opened on. */
  record: { type: MonitoredRecordType; id: number };
  /** Unresolved queries as the record's detail counts them (the section's title). */
  openCount?: number;
  /** Without its own card and title (inside the patient card's tab). */
  bare?: boolean;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const [opening, setOpening] = useState(false);
  const mayRead = can('queries.read');
  const queries = useRecordQueries(scope, mayRead);
  if (!mayRead) return null;

  const rows = queries.data?.data ?? [];
  // Waiting for someone first (open, answered), then the closed ones; each newest first.
  const ordered = [
    ...rows.filter((query) => query.status !== 'closed'),
    ...rows.filter((query) => query.status === 'closed'),
  ];
  const showRecord = 'patient_id' in scope;

  const body = (
    <Stack gap="sm">
      {can('monitor.queries') && (
        <Button
          variant="light"
          w="fit-content"
          leftSection={<IconMessageQuestion size={16} aria-hidden />}
          onClick={() => setOpening(true)}
        >
          {t('monitoring.openQuery')}
        </Button>
      )}
      {queries.isPending ? (
        <Center py="sm">
          <Loader size="sm" role="status" aria-label={t('app.loading')} />
        </Center>
      ) : queries.isError ? (
        <Alert color="red" role="alert">
          {t('monitoring.loadError')}
        </Alert>
      ) : ordered.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('monitoring.noQueries')}
        </Text>
      ) : (
        ordered.map((query) => <QueryThread key={query.id} query={query} showRecord={showRecord} />)
      )}
      <OpenQueryDialog
        opened={opening}
        onClose={() => setOpening(false)}
        recordType={record.type}
        recordId={record.id}
      />
    </Stack>
  );
  if (bare) return body;
  const title =
    openCount === undefined
      ? t('monitoring.title')
      : t('monitoring.titleWithCount', { count: openCount });
  return (
    <Card withBorder padding="md" component="section" aria-label={t('monitoring.title')}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
      </Group>
      {body}
    </Card>
  );
}
