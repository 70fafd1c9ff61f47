import { Anchor, Badge, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconEdit, IconLock, IconLockOpen, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@portal/shared';
import type { DataQuery, QueryStatus } from '@portal/shared';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCan } from '../../lib/permissions';
import { useQueryMessage, useQueryStatus } from './monitoring-api';
import { authorName, correctionPath, recordPath, useFieldLabel } from './query-format';

export const STATUS_COLORS: Record<QueryStatus, string> = {
  open: 'red',
  answered: 'blue',
  closed: 'gray',
};

/** A query's status word as a badge: "Otwarte", "Z odpowiedzią", "Zamknięte". */
export function QueryStatusBadge({ status }: { status: QueryStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant={status === 'open' ? 'filled' : 'light'}>
      {t(`monitoring.statuses.${status}`)}
    </Badge>
  );
}

function refusalKey(error: unknown) {
  if (isApiError(error) && error.status === 'query_closed') return 'monitoring.alreadyClosed';
  if (isApiError(error) && error.status === 'query_not_closed') return 'monitoring.alreadyOpen';
  return commonErrorKey(error);
}

/** The answer box: the site answers ("Odpowiedz"), the monitor asks again. */
function MessageForm({ query }: { query: DataQuery }) {
  const { t } = useTranslation();
  const can = useCan();
  const send = useQueryMessage();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const monitor = can('monitor.queries');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setError(t('validation.required'));
      return;
    }
    send.mutate(
      { id: query.id, text: text.trim() },
      {
        onSuccess: () => {
          setText('');
          notifySuccess(t(monitor ? 'monitoring.messageSent' : 'monitoring.answered'));
        },
        onError: (failure) => {
          const message = serverFieldErrors(failure).text;
          if (message) setError(message);
          else notifyError(t(refusalKey(failure)));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Textarea
          label={t(monitor ? 'monitoring.followUp' : 'monitoring.answerLabel')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setError(null);
          }}
          autosize
          minRows={2}
          maxLength={5000}
          error={error}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            size="xs"
            leftSection={<IconSend size={14} aria-hidden />}
            loading={send.isPending}
          >
            {t(monitor ? 'monitoring.send' : 'monitoring.answer')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * One query with its thread and what the user may do with it (the query's abilities, ADR 045):
 * answer or ask again, close or reopen, and for the site the way to correct the data.
 * `showRecord` links the record (the patient card's list and the queries screen).
 */
export function QueryThread({ query, showRecord }: { query: DataQuery; showRecord?: boolean }) {
  const { t } = useTranslation();
  const can = useCan();
  const status = useQueryStatus();
  const field = useFieldLabel()(query.record_type, query.field);

  const change = (action: 'close' | 'reopen') =>
    status.mutate(
      { id: query.id, action },
      {
        onSuccess: () =>
          notifySuccess(t(action === 'close' ? 'monitoring.closed' : 'monitoring.reopened')),
        onError: (error) => notifyError(t(refusalKey(error))),
      },
    );

  return (
    <Card
      withBorder
      padding="sm"
      component="article"
      aria-label={t('monitoring.queryLabel', { field })}
      data-testid={`query-${query.id}`}
    >
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs">
        <Group gap="xs" wrap="wrap">
          <Title order={3} size="h6">
            {field}
          </Title>
          <QueryStatusBadge status={query.status} />
          <Text size="xs" c="dimmed">
            {t('monitoring.age', { count: query.age_days })}
          </Text>
        </Group>
        {showRecord && (
          <Anchor component={Link} to={recordPath(query)} size="sm">
            {t(`monitoring.recordLink.${query.record_type}`)}
          </Anchor>
        )}
      </Group>
      <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {query.messages.map((message) => (
          <li key={message.id}>
            <Text size="xs" c="dimmed">
              {authorName(message.author)}
              {message.author.role === 'monitor' ? ` (${t('monitoring.monitor')})` : ''},{' '}
              {formatDateTime(message.created_at)}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {message.text}
            </Text>
          </li>
        ))}
      </Stack>
      {query.abilities.answer && (
        <Stack gap="xs" mt="sm">
          <MessageForm query={query} />
        </Stack>
      )}
      <Group gap="xs" mt="xs" wrap="wrap">
        {can('queries.answer') && query.status !== 'closed' && (
          <Button
            component={Link}
            to={correctionPath(query)}
            size="xs"
            variant="light"
            leftSection={<IconEdit size={14} aria-hidden />}
          >
            {t('monitoring.correct')}
          </Button>
        )}
        {query.abilities.close && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconLock size={14} aria-hidden />}
            loading={status.isPending}
            onClick={() => change('close')}
          >
            {t('monitoring.close')}
          </Button>
        )}
        {query.abilities.reopen && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconLockOpen size={14} aria-hidden />}
            loading={status.isPending}
            onClick={() => change('reopen')}
          >
            {t('monitoring.reopen')}
          </Button>
        )}
      </Group>
    </Card>
  );
}
